// Where the page runtime lives in a world, and how a call finds it: a versioned global holding a
// branded object. Our isolated world is ours alone; a pageFunction's runtime lives in the page's
// world, where the page may have put anything under that name — a value without our brand is
// treated as missing (and a getter that throws, too), so junk there never breaks a call.
import { RUNTIME_ID } from './runtime-id.js';

/** The global the runtime lives under: versioned, so a document never uses another build's runtime. */
export const RUNTIME_GLOBAL = `__cdpSkill_${RUNTIME_ID}`;
const BRAND = '__cdpSkill';

/** What a call answers, instead of calling, in a world without the runtime (the caller installs it and calls again). */
export const MISSING = '__cdpSkillRuntimeMissing';

/** An expression: this world's runtime, or undefined when it has none of this build. */
export const READ_RUNTIME =
  `(() => { try { const r = globalThis.${RUNTIME_GLOBAL}; ` +
  `return r && typeof r === 'object' && r.${BRAND} === '${RUNTIME_ID}' ? r : undefined; } catch { return undefined; } })()`;

/** An expression that installs `source` (the runtime's expression) unless present, and evaluates to the runtime. */
export function installing(source: string): string {
  return (
    `(() => { const have = ${READ_RUNTIME}; if (have) return have; const rt = ${source}; rt.${BRAND} = '${RUNTIME_ID}'; ` +
    `try { Object.defineProperty(globalThis, '${RUNTIME_GLOBAL}', { value: rt, configurable: true, enumerable: false }); } ` +
    'catch { /* the page made the name unwritable: this call uses rt, the next installs again */ } return rt; })()'
  );
}
