import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { getL10nJson } from "@vscode/l10n-dev";

const ROOT = path.resolve(__dirname, "../..");
const readJson = (rel: string) => JSON.parse(fs.readFileSync(path.join(ROOT, rel), "utf8"));
const manifest = readJson("package.json");

test("every setting the server reads is contributed, and nothing else", () => {
  assert.deepEqual(Object.keys(manifest.contributes.configuration.properties).sort(), [
    "gradguard.debounceMs", "gradguard.enable", "gradguard.ignore", "gradguard.interpreter", "gradguard.locale",
    "gradguard.path", "gradguard.run", "gradguard.select", "gradguard.severity", "gradguard.trace.server",
  ]);
});

test("every contributed setting has a localised description", () => {
  for (const [key, prop] of Object.entries<Record<string, unknown>>(manifest.contributes.configuration.properties)) {
    const text = prop.markdownDescription ?? prop.description;
    assert.match(String(text), /^%[\w.]+%$/, key);
  }
});

test("package.nls.json and package.nls.zh-cn.json translate exactly the manifest's %keys%", () => {
  const keys = [...new Set(JSON.stringify(manifest).match(/%[\w.]+%/g))].map((k) => k.slice(1, -1)).sort();
  assert.deepEqual(Object.keys(readJson("package.nls.json")).sort(), keys);
  assert.deepEqual(Object.keys(readJson("package.nls.zh-cn.json")).sort(), keys);
});

test("the zh-cn runtime bundle translates every string of l10n/bundle.l10n.json, placeholders kept", () => {
  const en: Record<string, string> = readJson("l10n/bundle.l10n.json");
  const zh: Record<string, string> = readJson("l10n/bundle.l10n.zh-cn.json");
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const [msg, translated] of Object.entries(zh)) {
    assert.deepEqual((translated.match(/\{\d+\}/g) ?? []).sort(), (msg.match(/\{\d+\}/g) ?? []).sort(), msg);
    assert.notEqual(translated, msg);
  }
});

test("the commands are contributed with localised titles", () => {
  assert.deepEqual(manifest.contributes.commands.map((c: { command: string; title: string }) => [c.command, c.title]), [
    ["gradguard.restart", "%command.restart.title%"],
    ["gradguard.showOutput", "%command.showOutput.title%"],
  ]);
});

test("activation: Python files and notebooks", () => {
  assert.deepEqual(manifest.activationEvents, ["onLanguage:python", "onNotebook:jupyter-notebook", "onNotebook:interactive"]);
});

test("the README's settings table lists every setting with its default", () => {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  for (const [key, prop] of Object.entries<{ default: unknown }>(manifest.contributes.configuration.properties)) {
    assert.ok(readme.includes(`| \`${key}\` | \`${JSON.stringify(prop.default)}\` |`), key);
  }
});

test("l10n/bundle.l10n.json is what @vscode/l10n-dev exports from client/src (npx @vscode/l10n-dev export -o l10n client/src)", async () => {
  const dir = path.join(ROOT, "client/src");
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".ts")).sort()
    .map((f) => ({ extension: ".ts", contents: fs.readFileSync(path.join(dir, f), "utf8") }));
  assert.deepEqual(await getL10nJson(files), readJson("l10n/bundle.l10n.json"));
});
