// GradGuard for VS Code: starts `gradguard lsp` over stdio for Python files, untitled Python
// buffers and Python notebook cells, and keeps it in step with the settings. "Install GradGuard"
// makes a private environment with the wheel the .vsix ships (privateEnv.ts).
import * as path from "path";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  DocumentSelector,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";
import { chooseServerCommand, expandVariables, isExecutableFile, probeModule, pythonProcessOptions, ServerCommand } from "./interpreter";
import { bundledWheel, installPrivateEnv, loggedRunner, venvLayout, VenvLayout, venvState, Wheel } from "./privateEnv";
import { activePythonExecutable, hasPythonExtension, onActivePythonChange } from "./pythonEnvironment";
import { buildServerSettings, RESTART_SETTINGS, ServerSettings } from "./settings";

/**
 * Files, untitled buffers and notebook cells that GradGuard serves (diagnostics, hover, quick fixes).
 * The cells of a Jupyter notebook reach the server as one notebook: the server declares
 * `notebookDocumentSync`, and vscode-languageclient then syncs those notebooks with
 * `notebookDocument/did*` and no longer text-syncs their cells; the cell entry here keeps the
 * language features on the cells (and text sync for other notebook kinds, such as the interactive window).
 */
export const DOCUMENT_SELECTOR: DocumentSelector = [
  { scheme: "file", language: "python" },
  { scheme: "untitled", language: "python" },
  { scheme: "vscode-notebook-cell", language: "python" },
];

const SECTION = "gradguard";
const START_TIMEOUT_MS = 60000;
const STOP_TIMEOUT_MS = 5000;

/** What `activate` returns: handy for the integration suite and for other extensions. */
export interface GradGuardApi {
  /** Resolves when the latest (re)start has finished, whether the server runs or a problem was reported. */
  ready(): Promise<void>;
  /** The running language client, if the server runs. */
  readonly client: LanguageClient | undefined;
  /** The command the server was last started with. */
  readonly serverCommand: ServerCommand | undefined;
  restart(): Promise<void>;
}

/** The server settings for `scope` (a document or folder URI; undefined: the window), with problems logged. */
function serverSettings(scope: vscode.Uri | undefined, log?: vscode.LogOutputChannel): ServerSettings {
  const built = buildServerSettings(vscode.workspace.getConfiguration(SECTION, scope), vscode.env.language);
  for (const p of built.problems) log?.warn(p);
  return built.settings;
}

/**
 * The language client's options: which documents, where the output goes, and the one place
 * that answers `initializationOptions` and `workspace/configuration` for "gradguard".
 */
export function clientOptions(output: vscode.LogOutputChannel, folder: vscode.WorkspaceFolder | undefined): LanguageClientOptions {
  return {
    documentSelector: DOCUMENT_SELECTOR,
    workspaceFolder: folder,
    outputChannel: output,
    traceOutputChannel: output,
    initializationOptions: () => serverSettings(folder?.uri, output),
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) return answers;
          return params.items.map((item, i) =>
            item.section === SECTION ? serverSettings(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : folder?.uri) : answers[i]);
        },
      },
    },
  };
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function timeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(vscode.l10n.t("{0} did not finish within {1} seconds", what, ms / 1000))), ms);
    p.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
  });
}

class GradGuard implements GradGuardApi {
  client: LanguageClient | undefined;
  serverCommand: ServerCommand | undefined;
  private pending: Promise<void> = Promise.resolve();

  /**
   * `home`: the extension's own folder, the working directory of the Python processes it starts;
   * `storage`: its global storage folder, which holds the private environment (`venv`).
   */
  constructor(
    private readonly output: vscode.LogOutputChannel,
    private readonly home: string,
    storage: string,
  ) {
    this.venv = venvLayout(path.join(storage, "venv"));
  }

  private readonly venv: VenvLayout;

  ready(): Promise<void> {
    return this.pending;
  }

  /** Stop the server (if any) and start it again with the current settings; calls are queued. */
  restart(): Promise<void> {
    this.pending = this.pending.then(() => this.startFresh()).catch((e) => this.output.error(`restart: ${message(e)}`));
    return this.pending;
  }

  /** Make the private environment with `python`, install the bundled wheel, and start the server from it; queued like restarts. */
  install(python: string): Promise<void> {
    this.pending = this.pending.then(() => this.installWith(python)).catch((e) => this.output.error(`install: ${message(e)}`));
    return this.pending;
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    try {
      await client.stop(STOP_TIMEOUT_MS);
    } catch (e) {
      this.output.warn(`stopping the server: ${message(e)}`);
    }
  }

  /** Tell a running server that settings changed, with the same settings object `initializationOptions` had. */
  async settingsChanged(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    await this.client?.sendNotification(DidChangeConfigurationNotification.type, { settings: { [SECTION]: serverSettings(folder?.uri, this.output) } });
  }

  private async startFresh(): Promise<void> {
    await this.stop();
    const folder = vscode.workspace.workspaceFolders?.[0];
    const cfg = vscode.workspace.getConfiguration(SECTION); // interpreter and path are window settings
    const expand = (v: string) => expandVariables(v, folder?.uri.fsPath);
    const interpreter = expand(cfg.get<string>("interpreter") ?? "");
    const paths = (cfg.get<string[]>("path") ?? []).map(expand);
    // an explicit setting wins: the private environment is neither read nor updated then
    const explicit = interpreter.trim() !== "" || paths.some((p) => p.trim());
    const privateEnv = explicit ? undefined : await this.privateEnv();
    let command: ServerCommand;
    try {
      command = chooseServerCommand({
        path: paths,
        interpreter,
        privateEnv,
        pythonExtension: explicit || privateEnv ? undefined : await activePythonExecutable(folder?.uri, this.output),
      });
    } catch (e) {
      this.serverCommand = undefined;
      this.report(vscode.l10n.t("GradGuard cannot start: {0}", message(e)), ["settings"]);
      return;
    }
    this.serverCommand = command;
    this.output.info(`server command (${command.source}): ${[command.command, ...command.args].join(" ")}`);
    if (command.python) {
      const probe = await probeModule(command.python, "gradguard", this.home);
      if (probe.kind !== "ok") {
        this.output.error(probe.detail);
        if (probe.kind === "not-importable") {
          this.report(vscode.l10n.t("GradGuard is not installed in the Python interpreter {0}.", command.python), ["install", "choose"]);
        } else if (probe.kind === "not-found") {
          this.report(vscode.l10n.t("GradGuard cannot start: the Python interpreter {0} was not found.", command.python), ["choose"]);
        } else {
          this.report(vscode.l10n.t("GradGuard cannot start: {0}", probe.detail), ["choose", "output"]);
        }
        return;
      }
    }
    // never in a workspace folder, and PYTHONSAFEPATH=1: a json.py there must not run (pythonProcessOptions)
    const serverOptions: ServerOptions = { command: command.command, args: command.args, options: pythonProcessOptions(this.home) };
    const client = new LanguageClient(SECTION, "GradGuard", serverOptions, clientOptions(this.output, folder));
    this.client = client;
    try {
      await timeout(client.start(), START_TIMEOUT_MS, vscode.l10n.t("Starting the GradGuard server"));
    } catch (e) {
      this.output.error(`start: ${message(e)}`);
      this.report(vscode.l10n.t("The GradGuard server failed to start: {0}", message(e)), ["output"]);
    }
  }

  /**
   * The private environment's `gradguard` when it holds the bundled wheel; one holding another
   * wheel (an older or newer GradGuard) is made again first, with the interpreter it was made with.
   * Undefined when there is none, or making it again failed (reported).
   */
  private async privateEnv(): Promise<string | undefined> {
    let wheel: Wheel & { path: string };
    try {
      wheel = bundledWheel(this.home);
    } catch (e) {
      this.output.warn(`the private environment is not used: ${message(e)}`);
      return undefined;
    }
    const venv = this.venv;
    const state = venvState(venv, wheel, isExecutableFile);
    if (state.kind === "missing") return undefined;
    if (state.kind === "stale") {
      this.output.info(`making the private environment ${venv.dir} again: ${state.reason}`);
      const title = vscode.l10n.t("Updating GradGuard's own environment to version {0}", wheel.version);
      if (!(await this.makePrivateEnv(state.installed.python, wheel, title))) return undefined;
    }
    return venv.gradguard;
  }

  /** (Re)make the private environment with `python` and install `wheel` into it, with a progress notification; failures are reported. */
  private async makePrivateEnv(python: string, wheel: Wheel & { path: string }, title: string): Promise<boolean> {
    const venv = this.venv;
    const run = loggedRunner(this.home, (line) => this.output.info(line));
    const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title },
      () => installPrivateEnv(python, venv, wheel, run));
    if (result.ok) {
      this.output.info(`private environment ready: ${venv.dir} (${wheel.file})`);
      return true;
    }
    this.report(result.step === "pip"
      ? vscode.l10n.t("pip could not install GradGuard into {0}. The GradGuard output has the log.", venv.dir)
      : result.noPipInVenv
        ? vscode.l10n.t("GradGuard could not create a virtual environment with {0}: its venv module cannot install pip (on Debian and Ubuntu: apt install python3-venv). The GradGuard output has the log.", python)
        : vscode.l10n.t("GradGuard could not create a virtual environment with {0}. The GradGuard output has the log.", python),
    ["output", "choose"]);
    return false;
  }

  /**
   * "Install GradGuard": the private environment made with `python`, then the server started from
   * it. A `gradguard.interpreter` setting would still win over it, so it is cleared (and that said).
   */
  private async installWith(python: string): Promise<void> {
    await this.stop();
    let wheel: Wheel & { path: string };
    try {
      wheel = bundledWheel(this.home);
    } catch (e) {
      this.report(vscode.l10n.t("GradGuard cannot install: {0}", message(e)), ["output"]);
      return;
    }
    if (!(await this.makePrivateEnv(python, wheel, vscode.l10n.t("Installing GradGuard into its own environment with {0}", python)))) return;
    const cfg = vscode.workspace.getConfiguration(SECTION);
    const set = cfg.inspect<string>("interpreter");
    const targets = [
      ...(set?.workspaceValue !== undefined ? [vscode.ConfigurationTarget.Workspace] : []),
      ...(set?.globalValue !== undefined ? [vscode.ConfigurationTarget.Global] : []),
    ];
    for (const target of targets) await cfg.update("interpreter", undefined, target);
    const done = targets.length
      ? vscode.l10n.t("GradGuard is installed in its own environment {0}; the gradguard.interpreter setting was cleared so that the server runs from it.", this.venv.dir)
      : vscode.l10n.t("GradGuard is installed in its own environment {0}.", this.venv.dir);
    this.output.info(done);
    void vscode.window.showInformationMessage(done);
    await this.startFresh();
  }

  /** Show a warning with actions; never fail silently. */
  private report(text: string, actions: ("install" | "choose" | "output" | "settings")[]): void {
    const labels = {
      install: vscode.l10n.t("Install GradGuard"),
      choose: vscode.l10n.t("Choose interpreter"),
      output: vscode.l10n.t("Show Output"),
      settings: vscode.l10n.t("Open Settings"),
    };
    this.output.error(text);
    const python = this.serverCommand?.python;
    void vscode.window.showWarningMessage(text, ...actions.map((a) => labels[a])).then(async (picked) => {
      if (picked === labels.install && python) await this.install(python);
      else if (picked === labels.choose) await chooseInterpreter();
      else if (picked === labels.output) this.output.show();
      else if (picked === labels.settings) await vscode.commands.executeCommand("workbench.action.openSettings", SECTION);
    });
  }
}

/** Let the user pick the interpreter: the Python extension's picker, or a file dialog that sets `gradguard.interpreter`. */
async function chooseInterpreter(): Promise<void> {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  if (hasPythonExtension() && !cfg.get<string>("interpreter")) {
    await vscode.commands.executeCommand("python.setInterpreter");
    return;
  }
  const picked = await vscode.window.showOpenDialog({
    title: vscode.l10n.t("Python interpreter for GradGuard"),
    openLabel: vscode.l10n.t("Use this interpreter"),
    canSelectMany: false,
    canSelectFolders: false,
  });
  if (!picked?.length) return;
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await cfg.update("interpreter", picked[0].fsPath, target);
}

let instance: GradGuard | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<GradGuardApi> {
  const output = vscode.window.createOutputChannel("GradGuard", { log: true });
  const gg = new GradGuard(output, context.extensionPath, context.globalStorageUri.fsPath);
  instance = gg;
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("gradguard.restart", () => gg.restart()),
    vscode.commands.registerCommand("gradguard.showOutput", () => output.show()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (RESTART_SETTINGS.some((key) => e.affectsConfiguration(key))) void gg.restart();
      else if (e.affectsConfiguration(SECTION)) void gg.settingsChanged();
    }),
  );
  void gg.restart();
  void onActivePythonChange(() => {
    if (!vscode.workspace.getConfiguration(SECTION).get<string>("interpreter")) void gg.restart();
  }, output).then((listener) => listener && context.subscriptions.push(listener));
  return gg;
}

export async function deactivate(): Promise<void> {
  await instance?.stop();
  instance = undefined;
}
