// Upload (SPEC §19.13, a step of ours): sets files on an <input type=file> with DOM.setFileInputFiles,
// as the browser's own file chooser would (input and change fire). The target may name the input, its
// label, a control next to it, or any control that opens the file chooser (file-chooser.ts).

import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExecutionError, StepValidationError, type Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import { NoChooserError, uploadThroughChooser } from './file-chooser.js';
import { locate, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';
import { markBeforeAction, settleAfterAction, type SettleResult } from './settle.js';

export interface UploadResult extends SettleResult {
  uploaded: string[];
  /** The element named by the step, as role and name. */
  target: string;
  via: 'input' | 'file chooser';
  /** The input that took the files, when the target was or held one. */
  input?: string;
  reResolved?: true;
}

/** Absolute paths of files that exist, or a StepValidationError naming the ones that don't. */
export function checkFiles(files: string[]): string[] {
  const paths = files.map((f) => resolve(f));
  const missing = paths.filter((p) => !existsSync(p) || !statSync(p).isFile());
  if (missing.length) throw new StepValidationError(`No such file: ${missing.join(', ')}`, { category: 'validation' });
  return paths;
}

function fileInputFor(scope: Scope, handle: number, count: number, near: boolean, deadline: Deadline) {
  return scope.call(
    (rt, a) => rt.formInput.fileInputFor(a.handle, a.count, a.near),
    { handle, count, near },
    { deadline, what: 'the file input' },
  );
}

export async function upload(
  scope: Scope,
  target: TargetSpec,
  files: string[],
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<UploadResult> {
  const paths = checkFiles(files);
  const el = await locate(scope, target, refs, opts, deadline);
  const uploaded = paths.map((p) => p.split('/').pop() ?? p);
  let input = await fileInputFor(scope, el.handle, paths.length, false, deadline);
  if (!input.ok && input.category === 'not-editable') {
    // Not a file input and none inside: the control opens the chooser, or (failing that) an input sits beside it.
    try {
      const r = await uploadThroughChooser(scope, target, paths, refs, opts, deadline);
      return { uploaded, via: 'file chooser', ...r };
    } catch (err) {
      if (!(err instanceof NoChooserError)) throw err;
      input = await fileInputFor(scope, el.handle, paths.length, true, deadline);
      if (!input.ok) throw err;
    }
  }
  if (!input.ok) throw new ExecutionError(`${el.desc} ${input.message}`, { category: input.category });
  const objectId = await scope.heldElementObjectId(input.handle, deadline);
  const mark = markBeforeAction(scope.page);
  await scope.page.guard(
    deadline.race(scope.session.send('DOM.setFileInputFiles', { files: paths, objectId }), 'the files to be set'),
  );
  const settled = await settleAfterAction(scope.page, mark, deadline);
  return {
    uploaded,
    target: el.name,
    via: 'input',
    input: input.desc,
    ...settled,
    ...(el.reResolved ? { reResolved: true } : {}),
  };
}
