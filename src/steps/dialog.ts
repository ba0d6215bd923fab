// The dialog step (SPEC §19.2): arms how the next alert / confirm / prompt / beforeunload of this
// command is answered. Dialogs are answered the moment they open (page/tab.ts), so the answer has
// to be given before the step that opens one. Unarmed, every dialog is accepted and reported.

import type { DialogAnswer } from '../page/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { describe, obj, optBool, optString, ParamError } from './params.js';

const DIALOG_PARAMS: ParamSchema = {
  forms: ['false'],
  keys: { accept: '', promptText: '' },
  note: 'before the step that opens one',
};

defineStep<DialogAnswer>({
  name: 'dialog',
  summary: 'Answer the next JS dialog of this command',
  params: DIALOG_PARAMS,
  armsDialog: true,
  remedyFor: { beforeunload: () => ({ accept: true }) },
  needsTab: true,
  readOnly: true,
  parse(v) {
    if (typeof v === 'boolean') return { accept: v };
    if (typeof v === 'string')
      throw new ParamError(
        `dialog takes {accept: true|false, promptText}, got ${describe(v)}; for prompt text use {"accept": true, "promptText": ${JSON.stringify(v)}}`,
      );
    const o = obj(v, keysOf(DIALOG_PARAMS), 'dialog');
    const promptText = optString(o, 'promptText', { nonEmpty: false });
    const accept = optBool(o, 'accept') ?? true;
    if (promptText !== undefined && !accept)
      throw new ParamError('"promptText" is only used when the prompt is accepted');
    return { accept, ...(promptText !== undefined ? { promptText } : {}) };
  },
  async run(ctx, answer) {
    ctx.command.requireTab().page.armDialog(answer);
    return {
      armed: answer.accept ? 'accept' : 'dismiss',
      ...(answer.promptText !== undefined ? { promptText: answer.promptText } : {}),
    };
  },
});
