// The `state` step (issue 21.4): the tab's login state — its browser context's cookies (HttpOnly
// too) and its frames' localStorage and sessionStorage — saved to a file (mode 0600) and loaded back
// into another tab, browser or machine. Answers give counts, never values.

import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { homeDir, markSecret, StepValidationError } from '../common/index.js';
import { isSecretText } from '../shared/index.js';
import { countsOf, readState, restoreState, type SavedState } from '../page/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { obj, optString, ParamError } from './params.js';

type StateParams = { save: string } | { load: string };

/** A state file larger than this is not one we wrote (a whole profile's cookies are far smaller). */
const MAX_STATE_BYTES = 20 * 1024 * 1024;
/** Values this long that name a credential are kept out of every answer even if a page shows them. */
const MIN_SECRET_CHARS = 8;

const STATE_PARAMS: ParamSchema = {
  keys: { save: '', load: '' },
  returns: '{cookies, origins, keys}',
  note: 'keep the file secret',
};

/**
 * Where a state file is: a bare name in ~/.cdp-skill/state/ (private, 0700, and out of the
 * project tree, where a login could be committed), any other relative path from the working
 * directory, an absolute one as given.
 */
function statePath(p: string): string {
  if (isAbsolute(p)) return p;
  if (basename(p) !== p) return join(process.cwd(), p);
  const dir = join(homeDir(), '.cdp-skill', 'state');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return join(dir, p);
}

/** Session tokens (HttpOnly cookies, credential-named cookies and keys) are never echoed, whatever a page shows. */
function markStateSecrets(state: SavedState): void {
  const mark = (v: string) => {
    if (v.length >= MIN_SECRET_CHARS) markSecret(v);
  };
  for (const c of state.cookies) if (c.httpOnly || isSecretText(c.name)) mark(c.value);
  for (const o of state.origins)
    for (const i of [...o.localStorage, ...o.sessionStorage]) if (isSecretText(i.name)) mark(i.value);
}

/** Written to a private temp file and renamed over `path`: never readable by others, never half there. */
function writePrivate(path: string, text: string): void {
  if (lstatSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw new StepValidationError(`${path} is a folder: give the state file's name`);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 }); // a folder made for it is private too
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new StepValidationError(`Cannot write the state file ${path}: ${(err as Error).message}`);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isItem = (v: unknown): boolean => isRecord(v) && typeof v.name === 'string' && typeof v.value === 'string';

/** A state file as we (or Playwright's storageState) write it; anything else is refused whole. */
function readStateFile(path: string): SavedState {
  let text: string;
  try {
    const st = statSync(path); // a link to a state file is one
    if (!st.isFile()) throw new Error('not a file');
    if (st.size > MAX_STATE_BYTES) throw new Error(`larger than ${MAX_STATE_BYTES} bytes`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new StepValidationError(`Cannot read the state file ${path}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = undefined;
  }
  const cookiesOk =
    isRecord(raw) &&
    Array.isArray(raw.cookies) &&
    raw.cookies.every((c) => isItem(c) && typeof (c as { domain?: unknown }).domain === 'string');
  const origins = isRecord(raw) && Array.isArray(raw.origins) ? raw.origins : undefined;
  const originsOk = origins?.every(
    (o) =>
      isRecord(o) &&
      typeof o.origin === 'string' &&
      [o.localStorage, o.sessionStorage ?? []].every((l) => Array.isArray(l) && l.every(isItem)),
  );
  if (!cookiesOk || !originsOk)
    throw new StepValidationError(
      `${path} is not a state file ({cookies: [{name, value, domain, …}], origins: [{origin, localStorage, sessionStorage}]}): write one with {"state": {"save": "${path}"}}`,
    );
  const state = raw as unknown as SavedState;
  for (const o of state.origins) o.sessionStorage ??= [];
  return state;
}

defineStep<StateParams>({
  name: 'state',
  summary: "Save the tab's cookies and storage to a file, or load them",
  params: STATE_PARAMS,
  needsTab: true,
  readOnly: (p) => 'save' in p,
  parse(v) {
    const o = obj(v, keysOf(STATE_PARAMS), 'state');
    const save = optString(o, 'save');
    const load = optString(o, 'load');
    if (Boolean(save) === Boolean(load))
      throw new ParamError('state needs exactly one of "save" or "load" (a file path)');
    return save ? { save } : { load: load! };
  },
  async run(ctx, p) {
    const tab = ctx.command.requireTab();
    const { page } = tab;
    if ('save' in p) {
      const state = await page.guard(readState(tab.conn, page, ctx.deadline));
      markStateSecrets(state);
      const path = statePath(p.save);
      writePrivate(path, `${JSON.stringify(state, null, 1)}\n`);
      return { saved: path, ...countsOf(state) };
    }
    const path = statePath(p.load);
    const state = readStateFile(path);
    markStateSecrets(state);
    const url = await page.guard(restoreState(tab.conn, page, state, ctx.deadline));
    return { loaded: path, ...countsOf(state), url };
  },
});
