
const ts = require('typescript');
const Module = require('module');
const path = require('path');
const fs = require('fs');
const root = "/work/main";
const cfg = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile).config;
const { options } = ts.convertCompilerOptionsFromJson(cfg.compilerOptions, root);
const compilerOptions = { ...options, module: ts.ModuleKind.CommonJS, sourceMap: false, inlineSourceMap: true,
  inlineSources: false, declaration: false, noEmit: false, isolatedModules: true };
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, isMain, opts) {
  const m = /^@app\/([a-z-]+)(\/.*)?$/.exec(request);
  if (m) request = path.join(root, 'libs', m[1], 'src', m[2] || '');
  return resolve.call(this, request, parent, isMain, opts);
};
require.extensions['.ts'] = function (module, filename) {
  const out = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(out.outputText, filename);
};
require("/work/main/apps/worker/src/main.ts");
