// Build GradGuard's wheel into out/wheel/ (WHEEL_DIR of client/src/privateEnv.ts), which the .vsix
// ships and "Install GradGuard" installs into the extension's private environment. The wheel is
// built by pip in a throwaway virtual environment of `$PYTHON` (default python3), so a system Python
// without pip (Debian's, PEP 668) works too; the build requirements come from the package index.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const python = process.env.PYTHON || "python3";
const out = "out/wheel";
const venv = mkdtempSync(join(tmpdir(), "gg-wheel-"));
const run = (cmd, args) => execFileSync(cmd, args, { stdio: "inherit", timeout: 600000 });
try {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  run(python, ["-m", "venv", venv]);
  const pip = process.platform === "win32" ? join(venv, "Scripts", "pip.exe") : join(venv, "bin", "pip");
  run(pip, ["wheel", "--quiet", "--disable-pip-version-check", "--no-deps", "--wheel-dir", out, "."]);
} finally {
  rmSync(venv, { recursive: true, force: true });
}
const wheels = readdirSync(out).filter((f) => f.endsWith(".whl"));
if (wheels.length !== 1 || !/^gradguard-.*-py3-none-any\.whl$/.test(wheels[0])) {
  console.error(`build-wheel: expected one gradguard-*-py3-none-any.whl in ${out}, found ${JSON.stringify(wheels)}`);
  process.exit(1);
}
console.log(`build-wheel: ${out}/${wheels[0]}`);
