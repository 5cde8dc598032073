// The Python extension's active environment, through its published API package
// (@vscode/python-extension), never by reading its settings or files.
import * as vscode from "vscode";
import { PythonExtension } from "@vscode/python-extension";

const PYTHON_EXTENSION_ID = "ms-python.python";
const API_TIMEOUT_MS = 15000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    p.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
  });
}

/** The Python extension's API, or undefined when that extension is not installed. Rejects after 15 s. */
async function pythonApi(): Promise<PythonExtension | undefined> {
  if (!vscode.extensions.getExtension(PYTHON_EXTENSION_ID)) return undefined;
  return withTimeout(PythonExtension.api(), API_TIMEOUT_MS, "the Python extension");
}

/**
 * The executable of the Python extension's active environment for `resource` (a file or
 * folder), or undefined when the extension is not installed or has no valid environment.
 * Errors from the extension are logged to `log` and give undefined.
 */
export async function activePythonExecutable(resource: vscode.Uri | undefined, log: vscode.LogOutputChannel): Promise<string | undefined> {
  try {
    const api = await pythonApi();
    if (!api) return undefined;
    const envPath = api.environments.getActiveEnvironmentPath(resource);
    const env = await withTimeout(api.environments.resolveEnvironment(envPath), API_TIMEOUT_MS, "the Python extension");
    return env?.executable.uri?.fsPath;
  } catch (e) {
    log.warn(`Python extension: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** Call `listener` whenever the Python extension's active environment changes (nothing when it is absent). */
export async function onActivePythonChange(listener: () => void, log: vscode.LogOutputChannel): Promise<vscode.Disposable | undefined> {
  try {
    return (await pythonApi())?.environments.onDidChangeActiveEnvironmentPath(listener);
  } catch (e) {
    log.warn(`Python extension: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** True when the Python extension is installed (its "Select Interpreter" command can be offered). */
export function hasPythonExtension(): boolean {
  return vscode.extensions.getExtension(PYTHON_EXTENSION_ID) !== undefined;
}
