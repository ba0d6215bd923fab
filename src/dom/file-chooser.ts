// Uploads through a control that opens the file chooser (SPEC §19.13): Dropzone's area, a button
// that creates its input on click. The chooser is intercepted, the control clicked with a trusted
// click, and the files set on whatever input the chooser belongs to.

import { ExecutionError, type Deadline } from '../common/index.js';
import type { Scope } from '../page/index.js';
import { click } from './click.js';
import type { RefHolder, TargetOptions, TargetSpec } from './locate.js';
import { markBeforeAction, settleAfterAction, type SettleResult } from './settle.js';

/** How long after the click the chooser may take to open (a page that opens it from a timer). */
const CHOOSER_WAIT_MS = 2000;

export interface ChooserUpload extends SettleResult {
  target: string;
  reResolved?: true;
}

/** Clicks `target`, catches the file chooser it opens and sets `paths` on its input. */
export async function uploadThroughChooser(
  scope: Scope,
  target: TargetSpec,
  paths: string[],
  refs: RefHolder,
  opts: TargetOptions,
  deadline: Deadline,
): Promise<ChooserUpload> {
  const session = scope.session;
  await scope.page.guard(
    deadline.race(session.send('Page.setInterceptFileChooserDialog', { enabled: true }), 'file chooser interception'),
  );
  const opened = session.waitFor('Page.fileChooserOpened');
  try {
    const clicked = await click(scope, target, refs, opts, deadline);
    const chooser = await within(opened.promise, deadline.cap(CHOOSER_WAIT_MS).remainingMs());
    if (!chooser) throw noChooserError(clicked.target);
    if (chooser.mode === 'selectSingle' && paths.length > 1)
      throw new ExecutionError(
        `${clicked.target} opened a file chooser that takes one file, got ${paths.length}: upload one file at a time`,
        { category: 'validation' },
      );
    if (chooser.backendNodeId === undefined) throw noChooserError(clicked.target, ' for an input we can reach');
    const mark = markBeforeAction(scope.page);
    await scope.page.guard(
      deadline.race(
        session.send('DOM.setFileInputFiles', { files: paths, backendNodeId: chooser.backendNodeId }),
        'the files to be set',
      ),
    );
    const settled = await settleAfterAction(scope.page, mark, deadline);
    return {
      ...pickSettled(clicked),
      ...settled,
      target: clicked.target,
      ...(clicked.reResolved ? { reResolved: true } : {}),
    };
  } finally {
    opened.cancel();
    await session.send('Page.setInterceptFileChooserDialog', { enabled: false }).catch(() => undefined);
  }
}

/** `promise`'s value, or undefined when `ms` pass first. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((r) => {
    timer = setTimeout(() => r(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function pickSettled(r: SettleResult): SettleResult {
  return {
    ...(r.navigated ? { navigated: r.navigated, newUrl: r.newUrl } : {}),
    ...(r.opened ? { opened: r.opened } : {}),
  };
}

/** The control opened no chooser: upload may still find an input beside it. */
export class NoChooserError extends ExecutionError {}

function noChooserError(target: string, detail = ''): NoChooserError {
  return new NoChooserError(
    `Clicking ${target} opened no file chooser${detail}, and it is not a file input nor has one inside or next to it. ` +
      'Look for the control that opens the chooser, or the file input itself (nextStep)',
    { category: 'no-effect', nextStep: { snapshot: true } },
  );
}
