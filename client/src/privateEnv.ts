// GradGuard's private virtual environment: "Install GradGuard" makes it in the extension's global
// storage with the chosen interpreter and installs the wheel the .vsix ships (client/build-wheel.mjs
// puts it in WHEEL_DIR); its dependencies come from the package index. Never `pip install gradguard`
// by name, never into the interpreter itself. No `vscode` import (unit-tested with node --test).
import { spawn } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { pythonProcessOptions } from "./interpreter";

/** Where the .vsix holds GradGuard's wheel, relative to the extension's folder. */
export const WHEEL_DIR = "out/wheel";

/** The file inside the private environment that says which wheel was installed into it. */
export const MARKER = "gradguard-wheel.json";

/** A wheel file: its name, the version in that name and the SHA-256 of its bytes. */
export interface Wheel {
  file: string;
  version: string;
  sha256: string;
}

/** What {@link MARKER} holds: the wheel installed and the interpreter the environment was made with. */
export interface Installed extends Wheel {
  python: string;
}

/**
 * The version in a GradGuard wheel's file name (`gradguard-0.1.0-py3-none-any.whl` -> `0.1.0`),
 * per the wheel naming convention `{name}-{version}(-{build})?-{python}-{abi}-{platform}.whl`.
 * Throws for any other file name.
 */
export function wheelVersion(file: string): string {
  const m = /^gradguard-([^-]+)(-\d[^-]*)?-[^-]+-[^-]+-[^-]+\.whl$/.exec(file);
  if (!m) throw new Error(`${file} is not a gradguard wheel`);
  return m[1];
}

/**
 * The wheel the extension in `extensionDir` ships: the one `gradguard-*.whl` in {@link WHEEL_DIR}.
 * Throws an Error saying what is wrong when there is none, or more than one.
 */
export function bundledWheel(extensionDir: string): Wheel & { path: string } {
  const dir = path.join(extensionDir, WHEEL_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    throw new Error(`the extension has no ${WHEEL_DIR} folder (${dir}): it was packaged without GradGuard's wheel (npm run package builds it)`);
  }
  const wheels = names.filter((n) => n.endsWith(".whl")).sort();
  if (wheels.length !== 1) {
    throw new Error(`${dir} must hold exactly one gradguard wheel, it holds ${wheels.length ? wheels.join(", ") : "none"}`);
  }
  const file = wheels[0];
  const full = path.join(dir, file);
  return { file, version: wheelVersion(file), sha256: createHash("sha256").update(fs.readFileSync(full)).digest("hex"), path: full };
}

/** The programs and files of a virtual environment in `dir`, as `venv` lays it out on `platform`. */
export interface VenvLayout {
  dir: string;
  python: string;
  gradguard: string;
  marker: string;
}

export function venvLayout(dir: string, platform: NodeJS.Platform = process.platform): VenvLayout {
  const p = platform === "win32" ? path.win32 : path.posix;
  const [bin, exe] = platform === "win32" ? ["Scripts", ".exe"] : ["bin", ""];
  return {
    dir,
    python: p.join(dir, bin, `python${exe}`),
    gradguard: p.join(dir, bin, `gradguard${exe}`),
    marker: p.join(dir, MARKER),
  };
}

/**
 * Whether the private environment can serve as it is: "missing" (never installed, or an install
 * that did not finish), "current" (it holds the bundled wheel and its `gradguard` executable), or
 * "stale" (it holds another wheel, newer or older, or lost its executable): then it is made again
 * with the interpreter it was made with (`installed.python`).
 */
export type VenvState =
  | { kind: "missing" }
  | { kind: "current" }
  | { kind: "stale"; installed: Installed; reason: string };

export function venvState(
  layout: VenvLayout,
  wheel: Wheel,
  isExecutable: (file: string) => boolean,
  readFile: (file: string) => string = (f) => fs.readFileSync(f, "utf8"),
): VenvState {
  let installed: Installed;
  try {
    installed = JSON.parse(readFile(layout.marker)) as Installed;
  } catch {
    return { kind: "missing" };
  }
  if (typeof installed?.python !== "string" || !installed.python) return { kind: "missing" };
  if (installed.version !== wheel.version || installed.sha256 !== wheel.sha256) {
    return { kind: "stale", installed, reason: `it holds ${installed.file} (sha256 ${installed.sha256}), the extension ships ${wheel.file} (sha256 ${wheel.sha256})` };
  }
  if (!isExecutable(layout.gradguard)) return { kind: "stale", installed, reason: `${layout.gradguard} is missing` };
  return { kind: "current" };
}

/** One command of an install: which step it is, so that a failure can say what failed. */
export interface InstallStep {
  step: "venv" | "pip";
  command: string;
  args: string[];
}

/**
 * The commands that (re)make the private environment in `layout.dir` with `python` and install
 * the wheel at `wheelPath` into it (`--clear`: nothing of an earlier environment stays).
 */
export function installSteps(python: string, layout: VenvLayout, wheelPath: string): InstallStep[] {
  return [
    { step: "venv", command: python, args: ["-m", "venv", "--clear", layout.dir] },
    { step: "pip", command: layout.python, args: ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", wheelPath] },
  ];
}

/** How a command ended: its exit code (null: killed), or why it could not start; and what it printed. */
export interface RunResult {
  code: number | null;
  error?: string;
  output: string;
}

/** Runs a command to its end; never rejects. */
export type Runner = (command: string, args: string[]) => Promise<RunResult>;

/** Run commands as the extension runs Python ({@link pythonProcessOptions} in `home`), each output line passed to `log`. */
export function loggedRunner(home: string, log: (line: string) => void): Runner {
  return (command, args) => new Promise((resolve) => {
    log(`$ ${[command, ...args].join(" ")}`);
    let output = "";
    let error: string | undefined;
    const child = spawn(command, args, { ...pythonProcessOptions(home), stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      for (const line of text.split(/\r?\n/)) if (line.trim()) log(line);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", (e) => { error = e.message; });
    child.on("close", (code) => {
      if (error) log(`${command}: ${error}`);
      else log(`exit code ${code}`);
      resolve({ code: error ? null : code, error, output });
    });
  });
}

/**
 * What an install came to: done, or the step that failed; `noPipInVenv` when `venv` failed because
 * the interpreter's venv cannot install pip (ensurepip missing, as on Debian without python3-venv).
 */
export type InstallResult = { ok: true } | { ok: false; step: InstallStep["step"]; noPipInVenv: boolean };

/**
 * Make the private environment with `python` and install `wheel` into it, then write the marker
 * that {@link venvState} reads. Stops at the first command that fails.
 */
export async function installPrivateEnv(
  python: string,
  layout: VenvLayout,
  wheel: Wheel & { path: string },
  run: Runner,
  writeFile: (file: string, text: string) => void = (f, t) => fs.writeFileSync(f, t),
): Promise<InstallResult> {
  fs.mkdirSync(path.dirname(layout.dir), { recursive: true });
  for (const s of installSteps(python, layout, wheel.path)) {
    const result = await run(s.command, s.args);
    if (result.code !== 0) return { ok: false, step: s.step, noPipInVenv: s.step === "venv" && /ensurepip/.test(result.output) };
  }
  const installed: Installed = { file: wheel.file, version: wheel.version, sha256: wheel.sha256, python };
  writeFile(layout.marker, `${JSON.stringify(installed, null, 2)}\n`);
  return { ok: true };
}
