// Bundle the extension (out/extension.js, what the .vsix ships) and, with --tests, the unit
// tests (out/unit/*.test.js, run by node --test) and the integration suite (out/test/suite.js,
// loaded by VS Code as extensionTestsPath). `vscode` is provided by the host (or a stub).
import * as esbuild from "esbuild";
import { readdirSync } from "node:fs";

const common = { bundle: true, platform: "node", format: "cjs", target: "node20", external: ["vscode"], logLevel: "warning" };
await esbuild.build({ ...common, entryPoints: ["client/src/extension.ts"], outfile: "out/extension.js", minify: true, keepNames: true });
if (process.argv.includes("--tests")) {
  const unit = readdirSync("client/test/unit").filter((f) => f.endsWith(".test.ts")).map((f) => `client/test/unit/${f}`);
  // @vscode/l10n-dev loads its tree-sitter grammars from its own folder: not bundled.
  await esbuild.build({ ...common, entryPoints: unit, outdir: "out/unit", external: ["vscode", "@vscode/l10n-dev"] });
  await esbuild.build({ ...common, entryPoints: ["client/test/integration/suite.ts"], outfile: "out/test/suite.js" });
}
