import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { chooseServerCommand, DEFAULT_PYTHON, expandVariables, probeModule, pythonProcessOptions } from "../../src/interpreter";

const PYTHON = process.env.PYTHON ?? DEFAULT_PYTHON;
const HOME = os.tmpdir();
const ROOT = path.resolve(__dirname, "../..");
const FIXTURE = JSON.parse(fs.readFileSync(path.join(ROOT, "client/test/fixtures/python-process.json"), "utf8"));

test("gradguard.path wins: the first executable entry runs `lsp`", () => {
  const cmd = chooseServerCommand({
    path: ["", "/nope/gradguard", "/venv/bin/gradguard", "/other/gradguard"],
    interpreter: "/venv/bin/python",
    pythonExtension: "/ext/python",
    isExecutable: (f) => f !== "/nope/gradguard",
  });
  assert.deepEqual(cmd, { command: "/venv/bin/gradguard", args: ["lsp"], source: "path" });
});

test("gradguard.path with no executable entry is an error naming them", () => {
  assert.throws(() => chooseServerCommand({ path: ["/a/gradguard", " /b/gradguard "], interpreter: "", isExecutable: () => false }),
    { message: "none of gradguard.path is an executable file: /a/gradguard, /b/gradguard" });
});

test("gradguard.interpreter comes before the Python extension's environment", () => {
  assert.deepEqual(chooseServerCommand({ path: [], interpreter: " /venv/bin/python ", pythonExtension: "/ext/python" }),
    { command: "/venv/bin/python", args: ["-m", "gradguard", "lsp"], source: "interpreter", python: "/venv/bin/python" });
});

test("the Python extension's environment comes before python3 on PATH", () => {
  assert.deepEqual(chooseServerCommand({ path: [], interpreter: "", pythonExtension: "/ext/python" }),
    { command: "/ext/python", args: ["-m", "gradguard", "lsp"], source: "python-extension", python: "/ext/python" });
  assert.deepEqual(chooseServerCommand({ path: [" "], interpreter: "  " }),
    { command: "python3", args: ["-m", "gradguard", "lsp"], source: "default", python: "python3" });
});

test("the private environment comes after gradguard.path and gradguard.interpreter, before the Python extension", () => {
  const privateEnv = "/gs/venv/bin/gradguard";
  assert.deepEqual(chooseServerCommand({ path: ["/p/gradguard"], interpreter: "", privateEnv, isExecutable: () => true }),
    { command: "/p/gradguard", args: ["lsp"], source: "path" });
  assert.deepEqual(chooseServerCommand({ path: [], interpreter: "/venv/bin/python", privateEnv, pythonExtension: "/ext/python" }),
    { command: "/venv/bin/python", args: ["-m", "gradguard", "lsp"], source: "interpreter", python: "/venv/bin/python" });
  assert.deepEqual(chooseServerCommand({ path: [" "], interpreter: " ", privateEnv, pythonExtension: "/ext/python" }),
    { command: privateEnv, args: ["lsp"], source: "private-env" });
});

test("variables in settings are expanded", () => {
  const home = os.homedir();
  assert.equal(expandVariables("${workspaceFolder}/.venv/bin/python", "/ws"), "/ws/.venv/bin/python");
  assert.equal(expandVariables("${workspaceFolder}/x", undefined), "${workspaceFolder}/x");
  assert.equal(expandVariables("~/venv/bin/python", "/ws"), `${home}/venv/bin/python`);
  assert.equal(expandVariables("${userHome}/p", "/ws"), `${home}/p`);
  assert.equal(expandVariables("${env:GG_TEST_DIR}/python", "/ws", { GG_TEST_DIR: "/opt" }), "/opt/python");
  assert.equal(expandVariables("/a~/b", "/ws"), "/a~/b");
});

test("probe: an importable module", async () => {
  assert.deepEqual(await probeModule(PYTHON, "json", HOME), { kind: "ok" });
});

test("probe: a module the interpreter does not have", async () => {
  assert.deepEqual(await probeModule(PYTHON, "gradguard_no_such_module", HOME),
    { kind: "not-importable", detail: `${PYTHON} cannot import gradguard_no_such_module` });
});

test("probe: an interpreter that does not exist", async () => {
  assert.deepEqual(await probeModule("/nonexistent/bin/python", "json", HOME), { kind: "not-found", detail: "/nonexistent/bin/python: ENOENT" });
});

// tests/robustness/test_security.py starts the server with the fixture's environment, outside
// the folder it plants modules in, and checks that none of them runs
test("Python runs in the extension's folder with the fixture's environment on top of the editor's", () => {
  assert.deepEqual(pythonProcessOptions("/ext", { PATH: "/bin", PYTHONSAFEPATH: "" }),
    { cwd: "/ext", env: { PATH: "/bin", ...FIXTURE.env } });
});

test("probe: a module planted in its working directory is not found (PYTHONSAFEPATH)", async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gg-probe-"));
  try {
    fs.writeFileSync(path.join(folder, "gg_planted_module.py"), "raise SystemExit(9)\n");
    assert.deepEqual(await probeModule(PYTHON, "gg_planted_module", folder),
      { kind: "not-importable", detail: `${PYTHON} cannot import gg_planted_module` });
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
