// Node built-ins that only some calls need (HTTP discovery, launching Chrome, TLS), loaded on first
// use: a process that lives for one command pays for every module it loads up front.

import { createRequire } from 'node:module';

let require: NodeJS.Require | undefined;

/** `require` for built-ins, from ES module code and from the CommonJS bundle alike; made on first use. */
export function requireBuiltin(id: string): unknown {
  require ??= createRequire(import.meta.url);
  return require(id);
}
