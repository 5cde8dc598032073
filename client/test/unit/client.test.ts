import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as vscode from "vscode";
import { clientOptions, DOCUMENT_SELECTOR } from "../../src/extension";

const ROOT = path.resolve(__dirname, "../..");
const readJson = (rel: string) => JSON.parse(fs.readFileSync(path.join(ROOT, rel), "utf8"));
const stubSettings = (s: Record<string, unknown>) => ((globalThis as { vscodeStubSettings?: unknown }).vscodeStubSettings = s);
const log = { warn: () => undefined } as unknown as vscode.LogOutputChannel;

test("Python files, untitled Python buffers and Python notebook cells are analysed", () => {
  assert.deepEqual(DOCUMENT_SELECTOR, [
    { scheme: "file", language: "python" },
    { scheme: "untitled", language: "python" },
    { scheme: "vscode-notebook-cell", language: "python" },
  ]);
});

test("initializationOptions is the fixture for the fixture settings", () => {
  stubSettings(readJson("client/test/fixtures/settings.json"));
  const init = clientOptions(log, undefined).initializationOptions as () => unknown;
  assert.deepEqual(init(), readJson("client/test/fixtures/initialization-options.json"));
});

test("workspace/configuration: the gradguard section gets the same object, other sections pass through", async () => {
  stubSettings(readJson("client/test/fixtures/settings.json"));
  const configuration = clientOptions(log, undefined).middleware!.workspace!.configuration!;
  const params = { items: [{ section: "gradguard", scopeUri: "file:///ws/a.py" }, { section: "python" }, { section: "gradguard" }] };
  const next = async () => ["ignored", { analysis: 1 }, "ignored"];
  const answer = await configuration(params, {} as never, next as never);
  const fixture = readJson("client/test/fixtures/initialization-options.json");
  assert.deepEqual(answer, [fixture, { analysis: 1 }, fixture]);
});
