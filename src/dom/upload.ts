// Upload (SPEC §19.13, a step of ours): sets files on an <input type=file> with DOM.setFileInputFiles,
// as the browser's own file chooser would (input and change fire). The input may be hidden behind a
// styled button or a drop zone: the target may name the input, its label, or the visible control.

import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExecutionError, StepValidationError, type Deadline } from '../common/index.js';
import type { Page } from '../page/index.js';
import { locate, type RefHolder, type TargetOptions, type TargetSpec } from './locate.js';
import { markBeforeAction, settleAfterAction, type SettleResult } from './settle.js';

export interface UploadResult extends SettleResult {
  uploaded: string[];
  input: string;
  reResolved?: true;
}

/** Absolute paths of files that exist, or a StepValidationError naming the ones that don't. */
export function checkFiles(files: string[]): string[] {
  const paths = files.map((f) => resolve(f));
  const missing = paths.filter((p) => !existsSync(p) || !statSync(p).isFile());
  if (missing.length) throw new StepValidationError(`No such file: ${missing.join(', ')}`, { category: 'validation' });
  return paths;
}

export async function upload(
  page: Page,
  target: TargetSpec,
  files: string[],
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<UploadResult> {
  const paths = checkFiles(files);
  const el = await locate(page, target, refs, opts, deadline);
  const input = await page.call(
    page.frame,
    (rt, a) => rt.formInput.fileInputFor(a.handle, a.count),
    { handle: el.handle, count: paths.length },
    { deadline, what: 'the file input' },
  );
  if (!input.ok) throw new ExecutionError(`${el.desc} ${input.message}`, { category: input.category });
  const objectId = await page.heldElementObjectId(page.frame, input.handle, deadline);
  const mark = markBeforeAction(page);
  await page.guard(
    deadline.race(
      page.frameRef(page.frame).session.send('DOM.setFileInputFiles', { files: paths, objectId }),
      'the files to be set',
    ),
  );
  const settled = await settleAfterAction(page, mark, deadline);
  return {
    uploaded: paths.map((p) => p.split('/').pop()!),
    input: input.desc,
    ...settled,
    ...(el.reResolved ? { reResolved: true } : {}),
  };
}
