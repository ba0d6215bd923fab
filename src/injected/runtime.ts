// Assembles the page runtime: every exported function of the page files below, joined by their
// source into one IIFE that is installed once per document under a versioned global. This file
// runs in Node (it only reads function sources); the functions it gathers run in the page.

import * as domDescribe from './dom-describe.js';
import * as elementBox from './element-box.js';
import * as pageContext from './page-context.js';
import * as serialize from './serialize.js';
import * as waitCondition from './wait-condition.js';
import * as ariaRole from './aria-role.js';
import * as ariaName from './aria-name.js';
import * as ariaSnapshot from './aria-snapshot.js';
import * as ariaStates from './aria-states.js';
import * as refMap from './ref-map.js';
import * as refBox from './ref-box.js';
import * as elementQuery from './element-query.js';
import * as elementSearch from './element-search.js';
import * as locate from './locate.js';
import * as actionability from './actionability.js';
import * as clickProbe from './click-probe.js';
import * as formInput from './form-input.js';
import * as scrolling from './scrolling.js';
import * as overlays from './overlays.js';
import * as liveRecorder from './live-recorder.js';
import * as drag from './drag.js';
import * as pipeline from './pipeline.js';
import * as webStorage from './web-storage.js';
import * as observe from './observe.js';
import * as forms from './form-state.js';
import * as failureContext from './failure-context.js';
import * as hookValue from './hook-value.js';
import * as dialogGuard from './dialog-guard.js';
import * as effectProbe from './effect-probe.js';
import * as pageReady from './page-ready.js';

// One entry per line: page modules are added often, and merges stay trivial.
const MODULES = {
  domDescribe,
  elementBox,
  pageContext,
  serialize,
  waitCondition,
  ariaRole,
  ariaName,
  ariaSnapshot,
  ariaStates,
  refMap,
  refBox,
  elementQuery,
  elementSearch,
  locate,
  actionability,
  clickProbe,
  formInput,
  scrolling,
  overlays,
  liveRecorder,
  drag,
  pipeline,
  webStorage,
  observe,
  forms,
  failureContext,
  hookValue,
  dialogGuard,
  effectProbe,
  pageReady,
};

type Modules = typeof MODULES;
type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every page function, by name: what `rt` is in page code. */
export type PageRuntime = Intersect<Modules[keyof Modules]>;

import { RUNTIME_ID } from './runtime-id.js';

/** The global the runtime lives under: versioned, so a page never uses another build's runtime. */
export const RUNTIME_GLOBAL = `__cdpSkill_${RUNTIME_ID}`;

export function runtimeSource(): string {
  const fns: string[] = [];
  const names: string[] = [];
  for (const mod of Object.values(MODULES)) {
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'function') continue;
      fns.push(String(value));
      // A bundler may rename a declaration to avoid a clash; the runtime key stays the export name.
      names.push(value.name === name ? name : `${name}: ${value.name}`);
    }
  }
  const body = `'use strict';\n${fns.join('\n')}\nconst rt = { ${names.join(', ')} };\nreturn rt;`;
  return `(() => {\n${body}\n})()`;
}

/**
 * An expression that installs the runtime if this document lacks it, and evaluates to it. The build
 * passes the source minified (scripts/bundle.mjs): it travels to every new document.
 */
export function installExpression(source: string = runtimeSource()): string {
  return `(globalThis.${RUNTIME_GLOBAL} || Object.defineProperty(globalThis, '${RUNTIME_GLOBAL}', `
    + `{ value: ${source}, configurable: true, enumerable: false }).${RUNTIME_GLOBAL})`;
}
