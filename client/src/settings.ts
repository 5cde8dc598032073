// The one place that turns the user's `gradguard.*` settings into what the server receives,
// both as `initializationOptions` and as the answer to `workspace/configuration` for the
// section "gradguard". Pure: no `vscode` import, so `node --test` covers it directly.
// client/test/fixtures/initialization-options.json is exactly what this builds for
// client/test/fixtures/settings.json; the Python end-to-end tests start the server with it.

/** The subset of `vscode.WorkspaceConfiguration` this module reads (section "gradguard"). */
export interface ConfigReader {
  get<T>(key: string): T | undefined;
}

/** A diagnostic severity name as the server and the `gradguard.severity` setting spell it. */
export type Severity = "error" | "warning" | "info";

/** When the server analyses a document: on every change (debounced) or on save only. */
export type RunMode = "onType" | "onSave";

/** Everything the server reads, in the shape it receives (JSON-serialisable). */
export interface ServerSettings {
  /** False: the server publishes no diagnostics. */
  enable: boolean;
  /** Rule codes (upper case, `GG101`), code prefixes (`GG1`) or kebab-case names to enable; empty = default. */
  select: string[];
  /** Same forms as `select`, to disable. */
  ignore: string[];
  /** Rule code or name -> severity override. */
  severity: Record<string, Severity>;
  /** BCP 47 language tag of the messages (`en`, `zh-CN`): `gradguard.locale`, else VS Code's display language. */
  locale: string;
  /** Delay in milliseconds between the last edit and the analysis (0..10000). */
  debounceMs: number;
  run: RunMode;
}

/** Settings that need a new server process when they change (the process, its command or its language). */
export const RESTART_SETTINGS = ["gradguard.interpreter", "gradguard.path", "gradguard.locale"] as const;

export const DEFAULT_DEBOUNCE_MS = 150;
const MAX_DEBOUNCE_MS = 10000;
const SEVERITIES: readonly Severity[] = ["error", "warning", "info"];
const SEVERITY_ALIASES: Record<string, Severity> = { information: "info", warn: "warning" };
const RUN_MODES: readonly RunMode[] = ["onType", "onSave"];

/** What was built, and a sentence for each setting value that had to be ignored (for the output channel). */
export interface BuiltSettings {
  settings: ServerSettings;
  problems: string[];
}

/**
 * Normalise one rule selector: rule codes and code prefixes (`gg101`, ` GG1 `) become upper
 * case, rule names (`Backward-Through-Freed-Graph`) lower case; surrounding blanks go.
 * Returns "" for a blank selector.
 */
export function normaliseRuleTag(tag: string): string {
  const t = tag.trim();
  return /^gg\d*$/i.test(t) ? t.toUpperCase() : t.toLowerCase();
}

/**
 * Normalise a list of rule selectors: each through {@link normaliseRuleTag}, blanks and
 * repeats dropped, order kept. A single string is split on commas and blanks (as typed in
 * a settings.json by hand).
 */
export function normaliseRuleTags(value: unknown): string[] {
  const items = typeof value === "string" ? value.split(/[\s,]+/) : Array.isArray(value) ? value : [];
  const out: string[] = [];
  for (const item of items) {
    const tag = typeof item === "string" ? normaliseRuleTag(item) : "";
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/**
 * Canonical BCP 47 form of a language tag: `zh-cn` -> `zh-CN`, `zh_CN.UTF-8` -> `zh-CN`,
 * `zh-hans` -> `zh-Hans`, `EN` -> `en`. Returns undefined for something that is no tag.
 */
export function normaliseLocale(tag: string): string | undefined {
  const t = tag.trim().replace(/[.@].*$/, "").replace(/_/g, "-");
  if (!t) return undefined;
  try {
    return Intl.getCanonicalLocales(t)[0];
  } catch {
    return undefined;
  }
}

/**
 * Build the server settings from the `gradguard` configuration section.
 *
 * `displayLanguage` is `vscode.env.language` (such as `en` or `zh-cn`); it is the locale
 * when `gradguard.locale` is empty. Values of the wrong type or out of range are replaced
 * by the default and named in `problems`; nothing throws.
 */
export function buildServerSettings(cfg: ConfigReader, displayLanguage: string): BuiltSettings {
  const problems: string[] = [];

  const severity: Record<string, Severity> = {};
  const rawSeverity = cfg.get<unknown>("severity");
  if (rawSeverity !== undefined && rawSeverity !== null && (typeof rawSeverity !== "object" || Array.isArray(rawSeverity))) {
    problems.push(`gradguard.severity must be an object of rule code to level, got ${JSON.stringify(rawSeverity)}`);
  } else {
    for (const [key, level] of Object.entries((rawSeverity ?? {}) as Record<string, unknown>)) {
      const tag = normaliseRuleTag(key);
      const name = typeof level === "string" ? level.trim().toLowerCase() : "";
      const sev = SEVERITY_ALIASES[name] ?? SEVERITIES.find((s) => s === name);
      if (!tag || !sev) {
        problems.push(`gradguard.severity: ignored ${JSON.stringify(key)}: ${JSON.stringify(level)} (levels: ${SEVERITIES.join(", ")})`);
      } else {
        severity[tag] = sev;
      }
    }
  }

  const rawLocale = cfg.get<unknown>("locale");
  const wanted = typeof rawLocale === "string" && rawLocale.trim() ? rawLocale : displayLanguage;
  let locale = normaliseLocale(wanted);
  if (!locale) {
    problems.push(`gradguard.locale: ${JSON.stringify(wanted)} is not a language tag; using en`);
    locale = "en";
  }

  const rawDebounce = cfg.get<unknown>("debounceMs");
  let debounceMs = DEFAULT_DEBOUNCE_MS;
  if (rawDebounce !== undefined && rawDebounce !== null) {
    if (typeof rawDebounce === "number" && Number.isFinite(rawDebounce)) {
      debounceMs = Math.min(MAX_DEBOUNCE_MS, Math.max(0, Math.round(rawDebounce)));
      if (debounceMs !== rawDebounce) problems.push(`gradguard.debounceMs: ${rawDebounce} is outside 0..${MAX_DEBOUNCE_MS}; using ${debounceMs}`);
    } else {
      problems.push(`gradguard.debounceMs must be a number of milliseconds, got ${JSON.stringify(rawDebounce)}; using ${DEFAULT_DEBOUNCE_MS}`);
    }
  }

  const rawRun = cfg.get<unknown>("run");
  let run: RunMode = "onType";
  if (rawRun !== undefined && rawRun !== null) {
    const found = RUN_MODES.find((m) => m === rawRun);
    if (found) run = found;
    else problems.push(`gradguard.run must be one of ${RUN_MODES.join(", ")}, got ${JSON.stringify(rawRun)}; using onType`);
  }

  return {
    settings: {
      enable: cfg.get<unknown>("enable") !== false,
      select: normaliseRuleTags(cfg.get<unknown>("select")),
      ignore: normaliseRuleTags(cfg.get<unknown>("ignore")),
      severity,
      locale,
      debounceMs,
      run,
    },
    problems,
  };
}
