import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { buildServerSettings, ConfigReader, normaliseLocale, normaliseRuleTag, normaliseRuleTags } from "../../src/settings";

const ROOT = path.resolve(__dirname, "../..");
const readJson = (rel: string) => JSON.parse(fs.readFileSync(path.join(ROOT, rel), "utf8"));

/** A `gradguard` section reader over a settings.json-shaped object. */
function reader(settings: Record<string, unknown>): ConfigReader {
  return { get: <T>(key: string) => settings[`gradguard.${key}`] as T | undefined };
}

/** The manifest's defaults, as VS Code's configuration returns them when nothing is set. */
function manifestDefaults(): Record<string, unknown> {
  const props = readJson("package.json").contributes.configuration.properties as Record<string, { default: unknown }>;
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.default]));
}

test("the fixture is exactly what the client sends for the fixture settings", () => {
  const built = buildServerSettings(reader(readJson("client/test/fixtures/settings.json")), "en");
  assert.deepEqual(built.problems, []);
  assert.deepEqual(built.settings, readJson("client/test/fixtures/initialization-options.json"));
});

test("the manifest's defaults give the server's defaults", () => {
  const built = buildServerSettings(reader(manifestDefaults()), "en");
  assert.deepEqual(built, {
    settings: { enable: true, select: [], ignore: [], severity: {}, locale: "en", debounceMs: 150, run: "onType" },
    problems: [],
  });
});

test("nothing set at all gives the same as the manifest's defaults", () => {
  assert.deepEqual(buildServerSettings(reader({}), "en"), buildServerSettings(reader(manifestDefaults()), "en"));
});

test("the locale follows VS Code's display language unless gradguard.locale is set", () => {
  assert.equal(buildServerSettings(reader({}), "zh-cn").settings.locale, "zh-CN");
  assert.equal(buildServerSettings(reader({ "gradguard.locale": "" }), "zh-tw").settings.locale, "zh-TW");
  assert.equal(buildServerSettings(reader({ "gradguard.locale": "zh-cn" }), "en").settings.locale, "zh-CN");
  assert.equal(buildServerSettings(reader({ "gradguard.locale": "en" }), "zh-cn").settings.locale, "en");
});

test("a locale that is no language tag falls back to English and says so", () => {
  assert.deepEqual(buildServerSettings(reader({ "gradguard.locale": "not a tag!" }), "en"), {
    settings: { enable: true, select: [], ignore: [], severity: {}, locale: "en", debounceMs: 150, run: "onType" },
    problems: ['gradguard.locale: "not a tag!" is not a language tag; using en'],
  });
});

test("language tags are canonicalised", () => {
  assert.equal(normaliseLocale("zh-cn"), "zh-CN");
  assert.equal(normaliseLocale("zh_CN.UTF-8"), "zh-CN");
  assert.equal(normaliseLocale("zh-hans"), "zh-Hans");
  assert.equal(normaliseLocale(" EN "), "en");
  assert.equal(normaliseLocale("de_DE@euro"), "de-DE");
  assert.equal(normaliseLocale(""), undefined);
  assert.equal(normaliseLocale("x"), undefined);
});

test("rule tags: codes and prefixes upper case, names lower case", () => {
  assert.equal(normaliseRuleTag(" gg101 "), "GG101");
  assert.equal(normaliseRuleTag("gg"), "GG");
  assert.equal(normaliseRuleTag("Backward-Through-Freed-Graph"), "backward-through-freed-graph");
  assert.equal(normaliseRuleTag("   "), "");
});

test("rule tag lists drop blanks and repeats and keep their order", () => {
  assert.deepEqual(normaliseRuleTags([" gg102", "GG1", "", "GG102", "Graph-Carried-Across-Iterations"]),
    ["GG102", "GG1", "graph-carried-across-iterations"]);
  assert.deepEqual(normaliseRuleTags("gg101, GG103  gg101"), ["GG101", "GG103"]);
  assert.deepEqual(normaliseRuleTags(undefined), []);
  assert.deepEqual(normaliseRuleTags([1, null, "gg101"]), ["GG101"]);
});

test("severity keys are normalised, aliases accepted, unknown levels named", () => {
  const built = buildServerSettings(reader({ "gradguard.severity": { gg101: "Warning", "GG102": "information", "GG103": "hint", " ": "info" } }), "en");
  assert.deepEqual(built.settings.severity, { GG101: "warning", GG102: "info" });
  assert.deepEqual(built.problems, [
    'gradguard.severity: ignored "GG103": "hint" (levels: error, warning, info)',
    'gradguard.severity: ignored " ": "info" (levels: error, warning, info)',
  ]);
  assert.deepEqual(buildServerSettings(reader({ "gradguard.severity": ["GG101"] }), "en").problems,
    ['gradguard.severity must be an object of rule code to level, got ["GG101"]']);
});

test("debounceMs is clamped to 0..10000 and a non-number is replaced by the default", () => {
  const high = buildServerSettings(reader({ "gradguard.debounceMs": 60000 }), "en");
  assert.equal(high.settings.debounceMs, 10000);
  assert.deepEqual(high.problems, ["gradguard.debounceMs: 60000 is outside 0..10000; using 10000"]);
  assert.equal(buildServerSettings(reader({ "gradguard.debounceMs": 12.4 }), "en").settings.debounceMs, 12);
  const text = buildServerSettings(reader({ "gradguard.debounceMs": "fast" }), "en");
  assert.equal(text.settings.debounceMs, 150);
  assert.deepEqual(text.problems, ['gradguard.debounceMs must be a number of milliseconds, got "fast"; using 150']);
});

test("run is onType or onSave", () => {
  assert.equal(buildServerSettings(reader({ "gradguard.run": "onSave" }), "en").settings.run, "onSave");
  assert.deepEqual(buildServerSettings(reader({ "gradguard.run": "always" }), "en").problems,
    ['gradguard.run must be one of onType, onSave, got "always"; using onType']);
});

test("enable is false only when set to false", () => {
  assert.equal(buildServerSettings(reader({ "gradguard.enable": false }), "en").settings.enable, false);
  assert.equal(buildServerSettings(reader({ "gradguard.enable": true }), "en").settings.enable, true);
});
