// Identifies the page runtime's version. `npm run build` overwrites the compiled copy with a hash
// of the assembled runtime (scripts/stamp-runtime.mjs), so a page holding a runtime from another
// build installs the current one instead of calling functions it lacks.
export const RUNTIME_ID = 'dev';
