// Identifies the page runtime's build: 'dev' in the source; `npm run build` (and `npm run docs`, whose
// tsc rewrites it) stamps the compiled copy (build/page/runtime-id.js) with a hash of the bundled
// runtime (scripts/stamp-runtime.mjs), the one dist/ carries. The runtime's global carries it, so a
// document holding another build's runtime gets this one beside it.
export const RUNTIME_ID = 'dev';
