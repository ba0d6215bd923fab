// Node built-ins that only some calls need (HTTP discovery, launching Chrome, TLS), loaded on first
// use: a process that lives for one command pays for every module it loads up front.

import { createRequire } from 'node:module';

/** `require` for built-ins, from ES module code and from the CommonJS bundle alike. */
export const requireBuiltin: NodeJS.Require = createRequire(import.meta.url);
