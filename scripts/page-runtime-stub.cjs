'use strict';
// Stands in for build/page/runtime-source.js inside dist/cli.bundle.cjs (scripts/bundle.mjs puts it
// there). The page code is only ever sent to pages as text, and only when a document lacks it; the
// build writes that text, the install expression, to dist/page-runtime.js. So the bundle every
// call reads carries none of the ~110 KB of page code, and a call that installs the runtime reads
// one small file instead of bundling it from src/injected/ with esbuild.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

let expression;

/** The expression that installs the page runtime (see installExpression in src/page/runtime-source.ts). */
exports.installExpression = () => (expression ??= readFileSync(join(__dirname, 'page-runtime.js'), 'utf8'));
