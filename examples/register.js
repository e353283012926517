/**
 * Lets Node run the examples (and the repository's TypeScript scripts) straight from source:
 * `node --require ./examples/register.js examples/basic/main.ts`.
 *
 * The examples live outside `src/`, so `npm run build` (rootDir `src`) does not compile them, and
 * compiling them separately would also recompile the constructs they import. Instead each `.ts`
 * file is transpiled by SWC (already a dev dependency for jest) when it is first required; type
 * checking stays with `npm run typecheck`, whose tsconfig includes `examples/**`.
 */
'use strict';
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    sourceMaps: 'inline',
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
