// The slice of the `vscode` API the client's modules touch, for unit tests. Settings come from
// globalThis.vscodeStubSettings ({"gradguard.select": [...], ...}); anything else is an inert proxy
// (what vscode-languageclient touches at import time).
const inert = () => new Proxy(function () {}, { get: (_t, k) => (k === Symbol.toPrimitive ? () => "" : inert()) });
const api = {
  env: { language: "en" },
  workspace: {
    getConfiguration: (section) => ({
      get: (key) => (globalThis.vscodeStubSettings ?? {})[`${section}.${key}`],
    }),
  },
  Uri: { parse: (value) => ({ scheme: value.split(":")[0], toString: () => value }) },
  l10n: { t: (text, ...args) => text.replace(/\{(\d+)\}/g, (_m, i) => String(args[Number(i)])) },
};
module.exports = new Proxy(api, { get: (target, key) => (key in target ? target[key] : key === "__esModule" ? false : inert()) });
