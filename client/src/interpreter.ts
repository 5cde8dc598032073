// Which program starts the server, and whether it can. No `vscode` import (unit-tested with node --test).
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";

/** Where the server command came from, in the order they are tried. */
export type CommandSource = "path" | "interpreter" | "private-env" | "python-extension" | "default";

/** A program and its arguments that run `gradguard lsp` over stdio. */
export interface ServerCommand {
  command: string;
  args: string[];
  source: CommandSource;
  /** The Python interpreter that runs the server; undefined when it is a `gradguard` executable (`gradguard.path`, the private environment). */
  python?: string;
}

/** Inputs of {@link chooseServerCommand}: settings (already variable-expanded) and the Python extension's choice. */
export interface CommandInputs {
  /** `gradguard.path`: candidate gradguard executables; the first that exists is used. */
  path: readonly string[];
  /** `gradguard.interpreter`: a Python executable, or "". */
  interpreter: string;
  /** The `gradguard` executable of the private environment "Install GradGuard" made, when it holds the bundled wheel. */
  privateEnv?: string;
  /** The Python extension's active environment's executable, when that extension is installed. */
  pythonExtension?: string;
  /** Does this file exist and is it executable? (injected for tests) */
  isExecutable?: (file: string) => boolean;
}

/** The Python used when neither a setting nor the Python extension names one. */
export const DEFAULT_PYTHON = "python3";

/** True when `file` exists and the current user may execute it. */
export function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Choose the server command: the first existing `gradguard.path` entry (`<exe> lsp`), else
 * `<python> -m gradguard lsp` with `gradguard.interpreter`, else the private environment's
 * `gradguard lsp`, else `<python> -m gradguard lsp` with the Python extension's active
 * environment, else with `python3` from PATH.
 *
 * Throws an Error naming the candidates when `gradguard.path` is set but none of its entries
 * is an executable file (a set path that does not work must not fall back silently).
 */
export function chooseServerCommand(inputs: CommandInputs): ServerCommand {
  const candidates = inputs.path.map((p) => p.trim()).filter(Boolean);
  if (candidates.length) {
    const isExec = inputs.isExecutable ?? isExecutableFile;
    const found = candidates.find((p) => isExec(p));
    if (!found) throw new Error(`none of gradguard.path is an executable file: ${candidates.join(", ")}`);
    return { command: found, args: ["lsp"], source: "path" };
  }
  if (!inputs.interpreter.trim() && inputs.privateEnv) return { command: inputs.privateEnv, args: ["lsp"], source: "private-env" };
  const [python, source]: [string, CommandSource] = inputs.interpreter.trim()
    ? [inputs.interpreter.trim(), "interpreter"]
    : inputs.pythonExtension
      ? [inputs.pythonExtension, "python-extension"]
      : [DEFAULT_PYTHON, "default"];
  return { command: python, args: ["-m", "gradguard", "lsp"], source, python };
}

/**
 * Expand `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~` in a setting
 * value. `${workspaceFolder}` stays as written when there is no folder open.
 */
export function expandVariables(value: string, workspaceFolder: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const home = os.homedir();
  return value
    .replace(/^~(?=$|[\\/])/, home)
    .replace(/\$\{(workspaceFolder|userHome|env:([^}]+))\}/g, (whole, name: string, envName?: string) => {
      if (name === "userHome") return home;
      if (envName !== undefined) return env[envName] ?? "";
      return workspaceFolder ?? whole;
    });
}

/** Result of probing an interpreter for the gradguard package. */
export type ProbeResult =
  | { kind: "ok" }
  | { kind: "not-found"; detail: string }
  | { kind: "not-importable"; detail: string }
  | { kind: "failed"; detail: string };

/** The working directory and environment of a Python process the extension starts. */
export interface PythonProcessOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * How every Python process the extension starts (the server and the probe) runs: in `home`
 * (the extension's own folder, never a folder the user opened) with PYTHONSAFEPATH=1 added to
 * `env`. `python -m` and `python -c` put the working directory first on sys.path, so a json.py
 * in an opened folder would run as the standard library's json; PYTHONSAFEPATH keeps it off
 * (Python >= 3.11), and the working directory keeps it off for older Pythons.
 */
export function pythonProcessOptions(home: string, env: NodeJS.ProcessEnv = process.env): PythonProcessOptions {
  return { cwd: home, env: { ...env, PYTHONSAFEPATH: "1" } };
}

const NOT_IMPORTABLE = 3;
const PROBE_SCRIPT = "import importlib.util, sys\nsys.exit(0 if importlib.util.find_spec(sys.argv[1]) else 3)";

/**
 * Ask `python` whether `module` is importable, without importing it (importlib.util.find_spec),
 * run as the server runs ({@link pythonProcessOptions} with `home`), so it finds what the server
 * would import.
 *
 * Resolves (never rejects) within `timeoutMs` milliseconds: "not-found" when the program
 * cannot be started, "not-importable" when find_spec finds nothing, "failed" for anything
 * else (a crash, a timeout), with the error text in `detail`.
 */
export function probeModule(python: string, module: string, home: string, timeoutMs = 20000): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const options = { ...pythonProcessOptions(home), timeout: timeoutMs, windowsHide: true };
    execFile(python, ["-c", PROBE_SCRIPT, module], options, (err, _stdout, stderr) => {
      if (!err) return resolve({ kind: "ok" });
      const e = err as Omit<NodeJS.ErrnoException, "code"> & { code?: string | number | null; killed?: boolean };
      if (e.code === "ENOENT" || e.code === "EACCES") return resolve({ kind: "not-found", detail: `${python}: ${e.code}` });
      if (e.code === NOT_IMPORTABLE) return resolve({ kind: "not-importable", detail: `${python} cannot import ${module}` });
      const why = e.killed ? `timed out after ${timeoutMs} ms` : String(stderr || e.message).trim();
      resolve({ kind: "failed", detail: `${python}: ${why}` });
    });
  });
}
