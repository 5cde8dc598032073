#!/usr/bin/env node
// Run the integration suite (out/test/suite.js) inside a real VS Code workbench: code-server
// 4.100.3 (VS Code 1.100.3) with the extension unpacked from the .vsix, driven by Debian's
// Chromium through playwright-core (the mechanism of @vscode/test-web: extensionDevelopmentPath,
// extensionTestsPath and window.codeAutomationExit).
//
// Usage: node client/test/integration/run-suite.js --vsix out/gradguard.vsix --python .venv/bin/python
//          [--suite out/test/suite.js] [--code-server PATH] [--chromium /usr/bin/chromium]
//          [--screenshot docs/img/vscode-hover.png] [--timeout SECONDS]
// Exit status: 0 when the suite passed, 1 when it failed or timed out, 2 when a prerequisite is missing.
// On failure it prints the suite's lines, the GradGuard output channel, the extension host log and
// code-server's output, and saves a screenshot of the page.
"use strict";
const { chromium } = require("playwright-core");
const { spawn, execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { parseArgs } = require("util");
const net = require("net");

const ROOT = path.resolve(__dirname, "../../..");
const { values: opts } = parseArgs({
  options: {
    vsix: { type: "string", default: path.join(ROOT, "out/gradguard.vsix") },
    suite: { type: "string", default: path.join(ROOT, "out/test/suite.js") },
    python: { type: "string", default: path.join(ROOT, ".venv/bin/python") },
    "code-server": { type: "string", default: process.env.CODE_SERVER || path.join(ROOT, "build/code-server/node_modules/.bin/code-server") },
    chromium: { type: "string", default: "/usr/bin/chromium" },
    screenshot: { type: "string" },
    timeout: { type: "string", default: "300" },
    port: { type: "string", default: process.env.PORT || "0" },
  },
});
const t0 = Date.now();
const stamp = () => `[${((Date.now() - t0) / 1000).toFixed(1)}s]`;
const say = (text) => console.log(`${stamp()} ${text}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function need(file, what) {
  if (!fs.existsSync(file)) throw new Error(`${what} not found: ${file}`);
  return path.resolve(file);
}

/** Stop code-server and everything it forked (file watcher, pty host, extension host). */
function stopGroup(child) {
  return new Promise((resolve) => {
    const kill = (sig) => { try { process.kill(-child.pid, sig); } catch { /* gone */ } };
    if (child.exitCode !== null || child.signalCode !== null) { kill("SIGKILL"); return resolve(); }
    const timer = setTimeout(() => { kill("SIGKILL"); resolve(); }, 5000);
    child.once("exit", () => { clearTimeout(timer); kill("SIGKILL"); resolve(); });
    kill("SIGTERM");
  });
}

/** A TCP port that is free on 127.0.0.1 right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => { const { port } = server.address(); server.close(() => resolve(port)); });
  });
}

/** Answer the suite's UI probes: files N.request.json in `dir`, answered by N.response.json. */
function serveProbes(page, dir) {
  const seen = new Set();
  let stopped = false;
  const answer = async (name) => {
    const id = name.split(".")[0];
    let reply;
    try {
      const req = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8"));
      // waitForText: the first visible `selector` element containing `text`; click: that element, clicked;
      // fill: type `value` into it; screenshot: the page, saved at `path`.
      if (req.op === "waitForText" || req.op === "click" || req.op === "fill") {
        const el = page.locator(req.selector).filter({ hasText: req.text ?? "" }).first();
        await el.waitFor({ state: "visible", timeout: req.timeoutMs });
        const text = req.op === "fill" ? await el.inputValue() : await el.innerText();
        if (req.op === "click") await el.click({ timeout: req.timeoutMs });
        if (req.op === "fill") await el.fill(req.value, { timeout: req.timeoutMs });
        reply = { ok: true, text };
      } else if (req.op === "screenshot") {
        fs.mkdirSync(path.dirname(req.path), { recursive: true });
        await page.screenshot({ path: req.path });
        reply = { ok: true, text: req.path };
      } else {
        reply = { ok: false, text: `unknown probe ${req.op}` };
      }
    } catch (e) {
      const shown = await page.locator(".notification-toast, .monaco-hover").allInnerTexts().catch(() => []);
      reply = { ok: false, text: `${e.message.split("\n")[0]} (visible toasts/hovers: ${JSON.stringify(shown)})` };
    }
    fs.writeFileSync(path.join(dir, `${id}.tmp-response`), JSON.stringify(reply));
    fs.renameSync(path.join(dir, `${id}.tmp-response`), path.join(dir, `${id}.response.json`));
  };
  (async () => {
    while (!stopped) {
      for (const name of fs.readdirSync(dir)) {
        if (name.endsWith(".request.json") && !seen.has(name)) {
          seen.add(name);
          await answer(name);
        }
      }
      await sleep(200);
    }
  })();
  return () => { stopped = true; };
}

/** Every file under `dir` whose name matches `re`, with its last `max` characters. */
function tails(dir, re, max = 6000) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true })
    .filter((f) => re.test(path.basename(f)))
    .map((f) => { const text = fs.readFileSync(path.join(dir, f), "utf8"); return `--- ${f} ---\n${text.slice(-max)}`; });
}

async function main() {
  const vsix = need(opts.vsix, "the .vsix (npm run package)");
  const suite = need(opts.suite, "the suite bundle (npm run build -- --tests)");
  const python = need(opts.python, "the Python with gradguard installed");
  const codeServer = need(opts["code-server"], "code-server (scripts/ci.d/40-vscode.sh installs it)");
  const browserPath = need(opts.chromium, "Chromium (apt-get install chromium)");
  const port = Number(opts.port) || await freePort();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gg-vscode-"));

  // What ships is what is tested: the extension under test is the unpacked .vsix.
  execFileSync(python, ["-m", "zipfile", "-e", vsix, path.join(tmp, "vsix")]);
  const extDev = path.join(tmp, "vsix", "extension");
  // A workspace with the example training script and notebook, set to the project's interpreter.
  const ws = path.join(tmp, "workspace");
  fs.mkdirSync(path.join(ws, ".vscode"), { recursive: true });
  fs.copyFileSync(need(path.join(ROOT, "examples/char_rnn.py"), "the example"), path.join(ws, "char_rnn.py"));
  fs.copyFileSync(need(path.join(ROOT, "examples/char_rnn.ipynb"), "the example notebook"), path.join(ws, "char_rnn.ipynb"));
  fs.writeFileSync(path.join(ws, ".vscode", "settings.json"), JSON.stringify({ "gradguard.interpreter": python }, null, 2));
  // A Python that cannot import gradguard (a bare venv of the same base interpreter).
  const bare = path.join(tmp, "venv-without-gradguard");
  execFileSync(python, ["-m", "venv", "--without-pip", bare]);
  const uiDir = path.join(tmp, "ui");
  fs.mkdirSync(uiDir);
  const userData = path.join(tmp, "data");
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify({
    "security.workspace.trust.enabled": false,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "update.mode": "none",
    "editor.hover.delay": 100,
    "editor.minimap.enabled": false,
    "editor.stickyScroll.enabled": false,
    "editor.hover.above": false,
    "window.zoomLevel": 0,
  }));
  say(`tmp ${tmp}`);

  let csLog = "";
  const cs = spawn(codeServer, [
    "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check",
    "--disable-workspace-trust", "--disable-getting-started-override",
    "--user-data-dir", userData, "--extensions-dir", path.join(tmp, "extensions"), ws,
  ], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      GG_PYTHON: python,
      GG_PYTHON_WITHOUT_GRADGUARD: path.join(bare, "bin", "python"),
      GG_UI_DIR: uiDir,
      GG_USER_DATA: userData,
      ...(opts.screenshot ? { GG_SCREENSHOT: path.resolve(opts.screenshot) } : {}),
    },
  });
  const onSignal = (sig) => { say(`${sig}: stopping code-server`); try { process.kill(-cs.pid, "SIGKILL"); } catch { /* gone */ } process.exit(1); };
  process.once("SIGTERM", onSignal).once("SIGINT", onSignal);
  cs.stdout.on("data", (d) => (csLog += d));
  cs.stderr.on("data", (d) => (csLog += d));

  let browser;
  let stopProbes = () => {};
  const lines = [];
  let passed = 0;
  let failed = 0;
  let code = "did not start";
  try {
    for (let i = 0; ; i++) {
      try { if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break; } catch { /* not yet */ }
      if (cs.exitCode !== null) throw new Error(`code-server exited with ${cs.exitCode}`);
      if (i > 600) throw new Error("code-server did not answer /healthz within 60 s");
      await sleep(100);
    }
    say("code-server up");
    browser = await chromium.launch({
      executablePath: browserPath, headless: true, timeout: 60000,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const exit = new Promise((resolve) => page.exposeFunction("codeAutomationExit", (c) => resolve(c)));
    page.on("console", (m) => {
      const text = m.text();
      if (text.includes("[gradguard-test]")) {
        lines.push(text);
        const line = text.replace(/^.*?\[gradguard-test\] /, "");
        if (line.startsWith("PASS ")) passed++;
        if (line.startsWith("FAIL ")) failed++;
        console.log(`${stamp()} ${line}`);
      }
      else if (/rror/.test(text)) lines.push(`[browser] ${text}`);
    });
    stopProbes = serveProbes(page, uiDir);
    const auth = `127.0.0.1:${port}`;
    const payload = JSON.stringify([
      ["extensionDevelopmentPath", `vscode-remote://${auth}${extDev}`],
      ["extensionTestsPath", `vscode-remote://${auth}${suite}`],
    ]);
    await page.goto(`http://${auth}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(payload)}`, { timeout: 60000 });
    say("workbench loading");
    const limit = Number(opts.timeout) * 1000;
    code = await Promise.race([exit, sleep(limit).then(() => `timeout after ${opts.timeout} s`)]);
    say(`suite finished: ${code}`);
    if (code !== 0) {
      const shot = path.join(tmp, "failure.png");
      await page.screenshot({ path: shot }).catch(() => {});
      console.log(`page at failure: ${shot}`);
    }
  } catch (e) {
    code = String(e.stack || e);
    say(`run failed: ${code}`);
  } finally {
    stopProbes();
    if (browser) await browser.close().catch(() => {});
    await stopGroup(cs);
  }
  if (code !== 0 && failed === 0) failed = 1; // the run itself failed (start-up, time-out)
  if (code !== 0) {
    console.log("=== browser errors and suite lines ===");
    console.log(lines.join("\n"));
    console.log("=== GradGuard output channel and extension host log ===");
    console.log(tails(path.join(userData, "logs"), /GradGuard\.log$|exthost\.log$/).join("\n"));
    console.log("=== code-server ===");
    console.log(csLog.slice(-6000));
  } else {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`vscode-workbench: ${passed} passed, ${failed} failed`);
  return code === 0 ? 0 : 1;
}

main().then((status) => process.exit(status), (e) => { console.error(`${stamp()} ${e.stack || e}`); process.exit(2); });
