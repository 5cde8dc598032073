import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_PYTHON } from "../../src/interpreter";
import {
  bundledWheel, installPrivateEnv, installSteps, loggedRunner, RunResult, venvLayout, venvState, WHEEL_DIR, wheelVersion,
} from "../../src/privateEnv";

const PYTHON = process.env.PYTHON ?? DEFAULT_PYTHON;
const ROOT = path.resolve(__dirname, "../..");
// sha256 of the three bytes "abc"
const ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const WHEEL = { file: "gradguard-0.2.0-py3-none-any.whl", version: "0.2.0", sha256: ABC };
const LAYOUT = venvLayout("/gs/venv", "linux");

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "gg-private-env-"));
}

test("the version of a wheel file name", () => {
  assert.equal(wheelVersion("gradguard-0.1.0-py3-none-any.whl"), "0.1.0");
  assert.equal(wheelVersion("gradguard-1.2.3rc1-1-py3-none-any.whl"), "1.2.3rc1");
  assert.throws(() => wheelVersion("gradguard-0.1.0.tar.gz"), { message: "gradguard-0.1.0.tar.gz is not a gradguard wheel" });
  assert.throws(() => wheelVersion("other-0.1.0-py3-none-any.whl"), { message: "other-0.1.0-py3-none-any.whl is not a gradguard wheel" });
});

test("the bundled wheel: its name, version and sha256; none or two are errors", () => {
  const ext = tempDir();
  try {
    const dir = path.join(ext, WHEEL_DIR);
    assert.throws(() => bundledWheel(ext), {
      message: `the extension has no out/wheel folder (${dir}): it was packaged without GradGuard's wheel (npm run package builds it)`,
    });
    fs.mkdirSync(dir, { recursive: true });
    assert.throws(() => bundledWheel(ext), { message: `${dir} must hold exactly one gradguard wheel, it holds none` });
    fs.writeFileSync(path.join(dir, WHEEL.file), "abc");
    assert.deepEqual(bundledWheel(ext), { ...WHEEL, path: path.join(dir, WHEEL.file) });
    fs.writeFileSync(path.join(dir, "gradguard-0.1.0-py3-none-any.whl"), "old");
    assert.throws(() => bundledWheel(ext), {
      message: `${dir} must hold exactly one gradguard wheel, it holds gradguard-0.1.0-py3-none-any.whl, gradguard-0.2.0-py3-none-any.whl`,
    });
  } finally {
    fs.rmSync(ext, { recursive: true, force: true });
  }
});

test("the private environment's programs on Linux/macOS and on Windows", () => {
  assert.deepEqual(LAYOUT, {
    dir: "/gs/venv", python: "/gs/venv/bin/python", gradguard: "/gs/venv/bin/gradguard", marker: "/gs/venv/gradguard-wheel.json",
  });
  assert.deepEqual(venvLayout("C:\\gs\\venv", "win32"), {
    dir: "C:\\gs\\venv", python: "C:\\gs\\venv\\Scripts\\python.exe", gradguard: "C:\\gs\\venv\\Scripts\\gradguard.exe",
    marker: "C:\\gs\\venv\\gradguard-wheel.json",
  });
});

test("install: venv with the chosen interpreter, then the venv's pip installs the wheel file (never a name)", () => {
  assert.deepEqual(installSteps("/usr/bin/python3", LAYOUT, "/ext/out/wheel/gradguard-0.2.0-py3-none-any.whl"), [
    { step: "venv", command: "/usr/bin/python3", args: ["-m", "venv", "--clear", "/gs/venv"] },
    { step: "pip", command: "/gs/venv/bin/python",
      args: ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "/ext/out/wheel/gradguard-0.2.0-py3-none-any.whl"] },
  ]);
});

test("reuse: the same wheel is current; another version or build, or a lost executable, is stale; no marker is missing", () => {
  const marker = (m: object) => (file: string) => {
    assert.equal(file, "/gs/venv/gradguard-wheel.json");
    return JSON.stringify(m);
  };
  const installed = { ...WHEEL, python: "/usr/bin/python3" };
  const exists = () => true;
  assert.deepEqual(venvState(LAYOUT, WHEEL, exists, marker(installed)), { kind: "current" });
  const older = { ...installed, file: "gradguard-0.1.0-py3-none-any.whl", version: "0.1.0", sha256: "00" };
  assert.deepEqual(venvState(LAYOUT, WHEEL, exists, marker(older)), {
    kind: "stale", installed: older,
    reason: `it holds gradguard-0.1.0-py3-none-any.whl (sha256 00), the extension ships gradguard-0.2.0-py3-none-any.whl (sha256 ${ABC})`,
  });
  const rebuilt = { ...installed, sha256: "11" };
  assert.deepEqual(venvState(LAYOUT, WHEEL, exists, marker(rebuilt)), {
    kind: "stale", installed: rebuilt,
    reason: `it holds gradguard-0.2.0-py3-none-any.whl (sha256 11), the extension ships gradguard-0.2.0-py3-none-any.whl (sha256 ${ABC})`,
  });
  assert.deepEqual(venvState(LAYOUT, WHEEL, (f) => f !== "/gs/venv/bin/gradguard", marker(installed)), {
    kind: "stale", installed, reason: "/gs/venv/bin/gradguard is missing",
  });
  const none = () => { throw new Error("ENOENT"); };
  assert.deepEqual(venvState(LAYOUT, WHEEL, exists, none), { kind: "missing" });
  assert.deepEqual(venvState(LAYOUT, WHEEL, exists, () => "{not json"), { kind: "missing" });
  assert.deepEqual(venvState(LAYOUT, WHEEL, exists, marker({ ...WHEEL })), { kind: "missing" });
});

/** A runner that records the commands and answers with `results` in turn. */
function fakeRunner(results: RunResult[]) {
  const ran: string[][] = [];
  return { ran, run: async (command: string, args: string[]) => { ran.push([command, ...args]); return results[ran.length - 1]; } };
}

test("a finished install writes the marker; a failed step stops it and says which", async () => {
  const storage = tempDir();
  try {
    const layout = venvLayout(path.join(storage, "venv"), "linux");
    const wheel = { ...WHEEL, path: "/ext/w.whl" };
    const written: [string, string][] = [];
    const write = (f: string, t: string) => { written.push([f, t]); };
    const ok = fakeRunner([{ code: 0, output: "" }, { code: 0, output: "Successfully installed gradguard-0.2.0" }]);
    assert.deepEqual(await installPrivateEnv("/usr/bin/python3", layout, wheel, ok.run, write), { ok: true });
    assert.deepEqual(ok.ran, [
      ["/usr/bin/python3", "-m", "venv", "--clear", layout.dir],
      [layout.python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "/ext/w.whl"],
    ]);
    assert.deepEqual(written, [[layout.marker,
      `{\n  "file": "gradguard-0.2.0-py3-none-any.whl",\n  "version": "0.2.0",\n  "sha256": "${ABC}",\n  "python": "/usr/bin/python3"\n}\n`]]);

    written.length = 0;
    const noEnsurepip = fakeRunner([{ code: 1, output: "Error: Command '['/gs/venv/bin/python', '-m', 'ensurepip', '--upgrade']' returned non-zero exit status 1." }]);
    assert.deepEqual(await installPrivateEnv("/usr/bin/python3", layout, wheel, noEnsurepip.run, write), { ok: false, step: "venv", noPipInVenv: true });
    assert.equal(noEnsurepip.ran.length, 1);
    const notFound = fakeRunner([{ code: null, error: "spawn /nope/python ENOENT", output: "" }]);
    assert.deepEqual(await installPrivateEnv("/nope/python", layout, wheel, notFound.run, write), { ok: false, step: "venv", noPipInVenv: false });
    const pipFails = fakeRunner([{ code: 0, output: "" }, { code: 1, output: "ERROR: No matching distribution found for libcst>=1.9" }]);
    assert.deepEqual(await installPrivateEnv("/usr/bin/python3", layout, wheel, pipFails.run, write), { ok: false, step: "pip", noPipInVenv: false });
    assert.deepEqual(written, []);
  } finally {
    fs.rmSync(storage, { recursive: true, force: true });
  }
});

test("the runner logs the command, each output line and the exit code", async () => {
  const lines: string[] = [];
  const run = loggedRunner(os.tmpdir(), (l) => lines.push(l));
  const script = "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)";
  const result = await run(PYTHON, ["-c", script]);
  assert.equal(result.code, 3);
  assert.equal(result.error, undefined);
  assert.deepEqual(result.output.split(/\r?\n/).filter(Boolean).sort(), ["err", "out"]);
  assert.deepEqual([lines[0], lines.slice(1, 3).sort(), lines[3]], [`$ ${PYTHON} -c ${script}`, ["err", "out"], "exit code 3"]);
  lines.length = 0;
  assert.deepEqual(await run("/nonexistent/bin/python", ["-m", "venv", "/x"]),
    { code: null, error: "spawn /nonexistent/bin/python ENOENT", output: "" });
  assert.deepEqual(lines, ["$ /nonexistent/bin/python -m venv /x", "/nonexistent/bin/python: spawn /nonexistent/bin/python ENOENT"]);
});

test("the .vsix ships the wheel folder the extension reads", () => {
  const ignore = fs.readFileSync(path.join(ROOT, ".vscodeignore"), "utf8").split("\n");
  assert.ok(ignore.includes(`!${WHEEL_DIR}/gradguard-*.whl`), ignore.join("\n"));
});
