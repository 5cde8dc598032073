// The integration suite (extensionTestsPath): runs inside code-server's extension host against
// the unpacked .vsix, started by run-suite.js, which also answers the UI probes (DOM checks and
// screenshots in the real workbench). No mocha: plain asserts; a throw fails the run.
// Every wait is bounded; each step logs "[gradguard-test]" lines that run-suite.js prints.
import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import type { GradGuardApi } from "../../src/extension";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this suite with client/test/integration/run-suite.js`);
  return value;
};

const log = (text: string) => console.log(`[gradguard-test] ${text}`);

/** Run one named step; run-suite.js counts the PASS and FAIL lines. A failed step ends the suite. */
async function step(name: string, fn: () => Promise<void>): Promise<void> {
  const t = Date.now();
  try {
    await fn();
  } catch (e) {
    log(`FAIL ${name}: ${(e as Error).stack ?? e}`);
    throw e;
  }
  log(`PASS ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

/** Poll `fn` every 100 ms until it returns something truthy; throw `what` after `ms`. */
async function waitFor<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, ms = 60000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let probeCount = 0;
/**
 * Ask run-suite.js to do something in the browser page (see its `probe` function) and return
 * its answer; throws with the runner's error text, or after `ms`.
 */
async function uiProbe(request: Record<string, unknown>, ms = 60000): Promise<string> {
  const dir = env("GG_UI_DIR");
  const id = ++probeCount;
  const tmp = path.join(dir, `${id}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify({ ...request, timeoutMs: ms - 5000 }));
  fs.renameSync(tmp, path.join(dir, `${id}.request.json`));
  const file = path.join(dir, `${id}.response.json`);
  const answer = await waitFor(`the runner's answer to ${JSON.stringify(request)}`, () =>
    fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as { ok: boolean; text: string }) : undefined, ms);
  if (!answer.ok) throw new Error(`UI probe ${JSON.stringify(request)} failed: ${answer.text}`);
  return answer.text;
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === "string" ? c : c.value))).join("\n");
}

/** The hover text at `pos`, once it contains `expected` (the server may still be restarting). */
async function hoverContaining(doc: vscode.TextDocument, pos: vscode.Position, expected: string): Promise<string> {
  let last = "";
  try {
    return await waitFor(`a hover containing ${JSON.stringify(expected)}`, async () => {
      last = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", doc.uri, pos));
      return last.includes(expected) ? last : undefined;
    });
  } catch (e) {
    throw new Error(`${(e as Error).message}; last hover: ${JSON.stringify(last)}`);
  }
}

function gradguardDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === "gradguard");
}

const codeOf = (d: vscode.Diagnostic) => (typeof d.code === "object" ? d.code.value : d.code);

async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration("gradguard").update(key, value, vscode.ConfigurationTarget.Workspace);
}

/** Where things are in the example: its lines and the loop's `loss.backward()` (line index, indentation). */
function layout(text: string) {
  const lines = text.split("\n");
  const backward = lines.findIndex((l) => l.trim() === "loss.backward()");
  assert.ok(backward > 0, "examples/char_rnn.py has a `loss.backward()` line");
  const indent = lines[backward].length - lines[backward].trimStart().length;
  return { lines, backward, indent };
}

export async function run(): Promise<void> {
  const t0 = Date.now();
  const python = env("GG_PYTHON");
  const pythonWithoutGradGuard = env("GG_PYTHON_WITHOUT_GRADGUARD");
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, "the test workspace is open");
  // examples/char_rnn.py: the GRU state is carried from chunk to chunk without a detach (GG102).
  const file = vscode.Uri.joinPath(folder.uri, "char_rnn.py");
  const original = fs.readFileSync(file.fsPath, "utf8");
  const where = layout(original);
  let doc!: vscode.TextDocument;
  let editor!: vscode.TextEditor;
  let api!: GradGuardApi;
  let diag!: vscode.Diagnostic;

  await step("activates on a Python file and starts <interpreter> -m gradguard lsp", async () => {
    doc = await vscode.workspace.openTextDocument(file);
    editor = await vscode.window.showTextDocument(doc);
    const ext = vscode.extensions.getExtension<GradGuardApi>("gradguard.gradguard");
    assert.ok(ext, "the GradGuard extension is installed");
    api = await waitFor("the extension to activate on a Python file", () => (ext.isActive ? ext.exports : undefined), 30000);
    await api.ready();
    log(`VS Code ${vscode.version}; server command: ${JSON.stringify(api.serverCommand)}`);
    assert.deepStrictEqual(api.serverCommand, { command: python, args: ["-m", "gradguard", "lsp"], source: "interpreter", python });
    assert.ok(api.client?.isRunning(), "the server runs");
  });

  await step("GG102 diagnostic on the loop's backward", async () => {
    const diags = await waitFor("a gradguard diagnostic", () => {
      const d = gradguardDiagnostics(doc.uri);
      return d.length ? d : undefined;
    });
    log(`diagnostics: ${diags.map((d) => `${codeOf(d)}@${d.range.start.line}:${d.range.start.character} ${d.message}`).join(" | ")}`);
    assert.deepStrictEqual(diags.map(codeOf), ["GG102"]);
    diag = diags[0];
    assert.deepStrictEqual([diag.range.start.line, diag.range.start.character], [where.backward, where.indent]);
    assert.strictEqual(diag.message, `\`loss\` reaches the previous iteration's graph through \`hidden\`, which the backward on line ${where.backward + 1} freed in that iteration`);
    assert.strictEqual(diag.severity, vscode.DiagnosticSeverity.Error);
  });

  await step("hover in English on the finding", async () => {
    const hover = await hoverContaining(doc, diag.range.start, "**GG102** `graph-carried-across-iterations`");
    // the fix first (in the unscrolled hover), the diagnostic's message not repeated
    const fix = `**Fix:** Detach \`hidden\` after the backward on line ${where.backward + 1}, so the next iteration starts a new graph`;
    assert.ok(hover.includes(`**GG102** \`graph-carried-across-iterations\`\n\n${fix}\n\n**Why:**`), hover);
    assert.ok(!hover.includes(diag.message), hover);
    assert.ok(hover.includes("**At run time:** Raises `RuntimeError: Trying to backward through the graph a second time"), hover);
    log(`English finding hover: ${hover.slice(0, 120)}...`);
    if (!process.env.GG_SCREENSHOT) return;
    await vscode.commands.executeCommand("workbench.action.closeSidebar");
    editor.selection = new vscode.Selection(diag.range.start, diag.range.start);
    editor.revealRange(new vscode.Range(diag.range.start.line - 12, 0, diag.range.start.line - 12, 0), vscode.TextEditorRevealType.AtTop);
    await vscode.commands.executeCommand("editor.action.showHover");
    await uiProbe({ op: "waitForText", selector: ".monaco-hover", text: "GG102" });
    await uiProbe({ op: "screenshot", path: process.env.GG_SCREENSHOT });
    log(`screenshot: ${process.env.GG_SCREENSHOT}`);
    await vscode.commands.executeCommand("editor.action.hideHover");
  });

  await step("the preferred quick fix gives the expected text", async () => {
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      "vscode.executeCodeActionProvider", doc.uri, diag.range, vscode.CodeActionKind.QuickFix.value, 10);
    log(`quick fixes: ${actions.map((a) => `${a.title}${a.isPreferred ? " (preferred)" : ""}`).join(" | ")}`);
    const preferred = actions.find((a) => a.isPreferred);
    assert.ok(preferred?.edit, "a preferred quick fix with an edit");
    assert.strictEqual(preferred.title, `Detach \`hidden\` after the backward on line ${where.backward + 1}, so the next iteration starts a new graph`);
    assert.ok(await vscode.workspace.applyEdit(preferred.edit));
    const fixed = [...where.lines];
    fixed.splice(where.backward + 1, 0, `${" ".repeat(where.indent)}hidden = hidden.detach()`);
    assert.strictEqual(doc.getText(), fixed.join("\n"));
    await waitFor("the diagnostic to go away after the fix", () => gradguardDiagnostics(doc.uri).length === 0 || undefined, 30000);
    await vscode.commands.executeCommand("workbench.action.files.revert");
    assert.strictEqual(doc.getText(), original);
  });

  await step("gradguard.locale = zh-cn: the hover in Chinese", async () => {
    await setSetting("locale", "zh-cn");
    const zhMessage = `\`loss\` 通过 \`hidden\` 连到了上一次迭代的计算图，而那张图在上一次迭代中已经被第 ${where.backward + 1} 行的反向传播释放了`;
    const again = await waitFor("the GG102 diagnostic in Chinese", () =>
      gradguardDiagnostics(doc.uri).find((d) => codeOf(d) === "GG102" && d.message === zhMessage));
    const zhFix = `**修复方法：** 在第 ${where.backward + 1} 行的反向传播之后分离 \`hidden\`（detach），让下一次迭代从一张新的计算图开始`;
    const finding = await hoverContaining(doc, again.range.start, zhFix);
    assert.ok(finding.includes(`**GG102** \`graph-carried-across-iterations\`\n\n${zhFix}\n\n**原因：**`), finding);
    log(`Chinese finding hover: ${finding.slice(0, 160)}...`);
    await setSetting("locale", undefined);
    await hoverContaining(doc, again.range.start, "**Fix:** Detach `hidden` after the backward");
  });

  const notification = `GradGuard is not installed in the Python interpreter ${pythonWithoutGradGuard}.`;
  await step("an interpreter without gradguard: notification with Install GradGuard and Choose interpreter", async () => {
    await setSetting("interpreter", pythonWithoutGradGuard);
    await waitFor("the restart with the other interpreter", async () => {
      await api.ready();
      return api.serverCommand?.python === pythonWithoutGradGuard || undefined;
    });
    assert.strictEqual(api.client, undefined, "no server runs without gradguard");
    const toast = await uiProbe({ op: "waitForText", selector: ".notification-toast", text: notification });
    log(`notification: ${toast.replace(/\s+/g, " ")}`);
    assert.ok(toast.includes("Install GradGuard") && toast.includes("Choose interpreter"), toast);
  });

  await step("Install GradGuard makes a private environment with that interpreter, installs the bundled wheel and runs the server from it", async () => {
    const ext = vscode.extensions.getExtension<GradGuardApi>("gradguard.gradguard")!;
    const wheels = fs.readdirSync(path.join(ext.extensionPath, "out", "wheel"));
    assert.deepStrictEqual(wheels, [`gradguard-${ext.packageJSON.version}-py3-none-any.whl`]);
    const venv = path.join(env("GG_USER_DATA"), "User", "globalStorage", "gradguard.gradguard", "venv");
    await uiProbe({ op: "click", selector: ".notification-toast .monaco-button", text: "Install GradGuard" });
    await waitFor("the server to run from the private environment", async () => {
      await api.ready();
      return (api.serverCommand?.source === "private-env" && api.client?.isRunning()) || undefined;
    }, 240000);
    assert.deepStrictEqual(api.serverCommand, { command: path.join(venv, "bin", "gradguard"), args: ["lsp"], source: "private-env" });
    const marker = JSON.parse(fs.readFileSync(path.join(venv, "gradguard-wheel.json"), "utf8"));
    assert.deepStrictEqual([marker.file, marker.version, marker.python], [wheels[0], ext.packageJSON.version, pythonWithoutGradGuard]);
    const interpreter = vscode.workspace.getConfiguration("gradguard").inspect<string>("interpreter");
    assert.deepStrictEqual([interpreter?.workspaceValue, interpreter?.globalValue], [undefined, undefined]);
    const done = `GradGuard is installed in its own environment ${venv}; the gradguard.interpreter setting was cleared so that the server runs from it.`;
    await uiProbe({ op: "waitForText", selector: ".notification-toast", text: done });
    await waitFor("the GG102 diagnostic from the private environment's server", () => gradguardDiagnostics(doc.uri).find((d) => codeOf(d) === "GG102"));
    await vscode.commands.executeCommand("notifications.clearAll");
  });

  await step("gradguard.interpreter wins over the private environment; Choose interpreter picks the project's Python in the file dialog", async () => {
    await setSetting("interpreter", pythonWithoutGradGuard);
    await uiProbe({ op: "waitForText", selector: ".notification-toast", text: notification });
    assert.deepStrictEqual(api.serverCommand?.source, "interpreter");
    await uiProbe({ op: "click", selector: ".notification-toast .monaco-button", text: "Choose interpreter" });
    await uiProbe({ op: "fill", selector: ".quick-input-widget input", value: python });
    await uiProbe({ op: "click", selector: ".quick-input-widget .monaco-button", text: "Use this interpreter" });
    await waitFor("gradguard.interpreter to be the chosen Python", () =>
      vscode.workspace.getConfiguration("gradguard").get<string>("interpreter") === python || undefined);
    await waitFor("the server to run again with the chosen interpreter", async () => {
      await api.ready();
      return (api.serverCommand?.python === python && api.client?.isRunning()) || undefined;
    });
    await waitFor("the GG102 diagnostic after the restart", () => gradguardDiagnostics(doc.uri).find((d) => codeOf(d) === "GG102"));
    await vscode.commands.executeCommand("notifications.clearAll");
  });

  await step("GradGuard: Restart Server starts a new server; GradGuard: Show Output shows its channel", async () => {
    const before = api.client;
    await vscode.commands.executeCommand("gradguard.restart");
    assert.ok(api.client && api.client !== before && api.client.isRunning(), "a new running client");
    await vscode.commands.executeCommand("gradguard.showOutput");
    await uiProbe({ op: "waitForText", selector: ".part.panel", text: "server command (interpreter)" });
    await waitFor("the GG102 diagnostic after the restart", () => gradguardDiagnostics(doc.uri).find((d) => codeOf(d) === "GG102"));
  });

  await step("an untitled Python buffer gets diagnostics", async () => {
    const content = ["import torch", "w = torch.ones(3, requires_grad=True)", "loss = (w * w).sum()", "loss.backward()", "loss.backward()", ""].join("\n");
    const untitled = await vscode.workspace.openTextDocument({ language: "python", content });
    await vscode.window.showTextDocument(untitled);
    const found = await waitFor("a GG101 diagnostic in the untitled buffer", () => gradguardDiagnostics(untitled.uri).find((d) => codeOf(d) === "GG101"));
    log(`${untitled.uri.toString()}: ${codeOf(found)}@${found.range.start.line}:${found.range.start.character} ${found.message}`);
    assert.deepStrictEqual([found.range.start.line, found.range.start.character], [4, 0]);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  await step("a long analysis shows its progress in the status bar", async () => {
    // 3,000 training steps (18,000 lines): several seconds to analyse on an idle machine
    // (about 1 s per 400), so the progress the server shows after half a second stays up
    // long enough to be seen
    const steps = Array.from({ length: 3000 }, (_, i) =>
      [`def step_${i}(x):`, "    loss = net(x).sum()", "    loss.backward()", "    opt.step()", "    return loss.item()", ""].join("\n"));
    const content = ["import torch", "net = torch.nn.Linear(4, 1)", "opt = torch.optim.SGD(net.parameters(), lr=0.1)", "", ...steps].join("\n");
    // asked first: the runner watches the status bar while the buffer opens and is analysed
    const shown = uiProbe({ op: "waitForText", selector: ".part.statusbar .statusbar-item", text: "GradGuard: analysing Untitled-" });
    const big = await vscode.workspace.openTextDocument({ language: "python", content });
    await vscode.window.showTextDocument(big);
    const text = (await shown).trim();
    log(`status bar: ${text}`);
    assert.strictEqual(text, `GradGuard: analysing ${big.uri.path}`);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  await step("gradguard.severity changes the diagnostic's severity without an edit", async () => {
    await vscode.window.showTextDocument(doc);
    await setSetting("severity", { GG102: "warning" });
    await waitFor("the GG102 diagnostic as a warning", () => gradguardDiagnostics(doc.uri).find(
      (d) => codeOf(d) === "GG102" && d.severity === vscode.DiagnosticSeverity.Warning), 60000);
    await setSetting("severity", undefined);
    await waitFor("the GG102 diagnostic as an error again", () => gradguardDiagnostics(doc.uri).find(
      (d) => codeOf(d) === "GG102" && d.severity === vscode.DiagnosticSeverity.Error), 60000);
  });

  await step("a notebook's Python cell gets diagnostics", async () => {
    const source = ["import torch", "w = torch.ones(3, requires_grad=True)", "loss = (w * w).sum()",
      "loss.backward()", "loss.backward()"].join("\n");
    const cell = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, source, "python");
    const notebook = await vscode.workspace.openNotebookDocument("jupyter-notebook", new vscode.NotebookData([cell]));
    await vscode.window.showNotebookDocument(notebook);
    const uri = notebook.cellAt(0).document.uri;
    const found = await waitFor("a GG101 diagnostic in the notebook cell", () =>
      gradguardDiagnostics(uri).find((d) => codeOf(d) === "GG101"));
    log(`${uri.toString()}: ${codeOf(found)}@${found.range.start.line}:${found.range.start.character}`);
    assert.deepStrictEqual([found.range.start.line, found.range.start.character], [4, 0]);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });
  await step("a .ipynb with the char_rnn hazard over three code cells: GG102 in the training cell, its hover and quick fix there", async () => {
    // examples/char_rnn.ipynb: a markdown cell, then the model defined (after `%matplotlib inline`),
    // built and trained in three code cells; no cell has the hazard alone
    const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.joinPath(folder.uri, "char_rnn.ipynb"));
    const notebookEditor = await vscode.window.showNotebookDocument(notebook);
    const cells = notebook.getCells();
    assert.deepStrictEqual(cells.map((c) => [c.kind, c.document.languageId]), [
      [vscode.NotebookCellKind.Markup, "markdown"], [vscode.NotebookCellKind.Code, "python"],
      [vscode.NotebookCellKind.Code, "python"], [vscode.NotebookCellKind.Code, "python"]]);
    const train = cells[3].document;
    const cellWhere = layout(train.getText());
    const found = await waitFor("the GG102 diagnostic in the training cell", () =>
      gradguardDiagnostics(train.uri).find((d) => codeOf(d) === "GG102"), 120000);
    log(`${train.uri.toString()}: ${codeOf(found)}@${found.range.start.line}:${found.range.start.character} ${found.message}`);
    assert.deepStrictEqual([found.range.start.line, found.range.start.character], [cellWhere.backward, cellWhere.indent]);
    assert.strictEqual(found.message, `\`loss\` reaches the previous iteration's graph through \`hidden\`, which the backward on line ${cellWhere.backward + 1} freed in that iteration`);
    assert.deepStrictEqual(found.relatedInformation?.map((r) => [r.location.uri.toString(), r.message]), [
      [train.uri.toString(), "graph of `hidden` built here"], [train.uri.toString(), "this backward freed it"]]);
    assert.deepStrictEqual(cells.slice(0, 3).map((c) => gradguardDiagnostics(c.document.uri).length), [0, 0, 0]);
    const fix = `Detach \`hidden\` after the backward on line ${cellWhere.backward + 1}, so the next iteration starts a new graph`;
    const hover = await hoverContaining(train, found.range.start, "**GG102** `graph-carried-across-iterations`");
    log(`hover in the cell: ${hover.slice(0, 120)}...`);
    assert.ok(hover.includes(`**Fix:** ${fix}`), hover);
    // the workbench makes a cell's text model when its editor is rendered: the code action
    // command needs it, so the training cell is revealed first
    notebookEditor.revealRange(new vscode.NotebookRange(3, 4), vscode.NotebookEditorRevealType.InCenter);
    notebookEditor.selection = new vscode.NotebookRange(3, 4);
    const actions = await waitFor("the quick fixes in the training cell", async () => {
      try {
        return await vscode.commands.executeCommand<vscode.CodeAction[]>(
          "vscode.executeCodeActionProvider", train.uri, found.range, vscode.CodeActionKind.QuickFix.value, 10);
      } catch (e) {
        log(`code actions not there yet: ${(e as Error).message}`);
        return undefined;
      }
    }, 30000);
    log(`quick fixes in the cell: ${actions.map((a) => a.title).join(" | ")}`);
    const preferred = actions.find((a) => a.isPreferred);
    assert.ok(preferred?.edit, "a preferred quick fix with an edit");
    assert.strictEqual(preferred.title, fix);
    assert.deepStrictEqual(preferred.edit.entries().map(([uri]) => uri.toString()), [train.uri.toString()]);
    assert.ok(await vscode.workspace.applyEdit(preferred.edit));
    const fixed = [...cellWhere.lines];
    fixed.splice(cellWhere.backward + 1, 0, `${" ".repeat(cellWhere.indent)}hidden = hidden.detach()`);
    assert.strictEqual(train.getText(), fixed.join("\n"));
    await waitFor("the diagnostic to go away after the fix", () => gradguardDiagnostics(train.uri).length === 0 || undefined, 60000);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });
  log(`all steps passed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
