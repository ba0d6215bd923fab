'use strict';
// Stands in for build/injected/runtime.js inside dist/cli.bundle.cjs (scripts/bundle.mjs puts it
// there). The page code is only ever sent to pages as text, and only when a document lacks it; the
// build writes that text, the install expression, to dist/page-runtime.js. So the bundle every
// call reads carries none of the ~110 KB of page code, and a call that installs the runtime reads
// one small file instead of assembling it from ~300 function sources.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

let expression;

/** The expression that installs the page runtime (see installExpression in src/injected/runtime.ts). */
exports.installExpression = () => (expression ??= readFileSync(join(__dirname, 'page-runtime.js'), 'utf8'));
