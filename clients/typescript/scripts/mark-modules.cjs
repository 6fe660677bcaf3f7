// Marks each build's module format, so Node reads dist/esm as ES modules and dist/cjs as CommonJS.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
writeFileSync(join(dist, 'esm', 'package.json'), '{ "type": "module" }\n');
writeFileSync(join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
