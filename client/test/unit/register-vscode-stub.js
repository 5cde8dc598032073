// node --test --require this file: `require("vscode")` gets ./vscode-stub.js (there is no editor here).
const Module = require("module");
const path = require("path");
const stub = path.join(__dirname, "vscode-stub.js");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === "vscode" ? stub : resolve.call(this, request, ...rest);
};
