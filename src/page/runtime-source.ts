// The page runtime as text: src/injected/index.ts bundled by esbuild into one IIFE, and the
// expression that installs it in a document. Build-time and dev-time only — scripts/bundle.mjs
// writes the minified install expression to dist/page-runtime.js, and the CLI bundle reads that
// file in place of this module (scripts/page-runtime-stub.cjs), so no call loads esbuild.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { installing } from './runtime-global.js';

export { RUNTIME_GLOBAL } from './runtime-global.js';

/** src/injected/index.ts, seen from src/page/ (tests, tsx) or from build/page/ (build scripts). */
function entryPoint(): string {
  for (const rel of ['../injected/index.ts', '../../src/injected/index.ts']) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error('src/injected/index.ts not found: the page runtime is bundled from the source tree');
}

/**
 * The runtime as one expression evaluating to its namespaces (`rt.ariaSnapshot.ariaSnapshot`, …).
 * Minified by default, local names too: it travels to every new document, and Chrome spends about
 * 40 us a KB moving a CDP message before the page parses it. Characters outside ASCII become \u escapes.
 */
export function runtimeSource(minify = true): string {
  const { outputFiles } = buildSync({
    entryPoints: [entryPoint()],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: '__rt',
    target: 'es2022',
    platform: 'browser',
    minify,
    charset: 'ascii',
    legalComments: 'none',
    logLevel: 'warning',
  });
  const code = outputFiles[0]!.text.trim();
  const iife = code.replace(/^"use strict";\s*var __rt\s*=\s*/, '').replace(/;$/, '');
  if (iife === code || iife.includes('var __rt'))
    throw new Error('the bundled page runtime is not the expression it should be');
  // The modules are strict code; so stays their bundle once it is an expression.
  return `(()=>{"use strict";return ${iife}})()`;
}

/** An expression that installs the runtime if this world lacks it, and evaluates to it. */
export function installExpression(source: string = runtimeSource()): string {
  return installing(source);
}
