// A click by text on text inside a code editor (issue 22 item 10): CodeMirror and Monaco draw their
// own text, so "the element showing it" is a line, a token or the whole scroller, and a click there
// leaves the caret elsewhere. A person clicking that text means the caret at it: the caret step's
// trusted click just before the text.
import type { TargetSpec } from '../injected/index.js';
import { placeCaret } from '../dom/index.js';
import type { AttachedTab, StepContext } from './registry.js';

/** The click's output when the text shows only in a code editor (the caret is put before it); else undefined. */
export async function clickTextInEditor(
  ctx: StepContext,
  tab: AttachedTab,
  target: TargetSpec,
): Promise<Record<string, unknown> | undefined> {
  if (target.by !== 'text') return undefined;
  const { text } = target;
  const only = await ctx.scope.call(
    (rt, a) => rt.editorText.onlyInCodeEditor(a.text),
    { text },
    {
      deadline: ctx.deadline,
      what: 'whether the text shows only in a code editor',
    },
  );
  if (!only) return undefined;
  const r = await placeCaret(ctx.scope, { text, position: 'before' }, tab.entry, ctx.deadline);
  return {
    clicked: true,
    method: 'caret',
    target: `text "${text.slice(0, 60)}" in the ${r.editor}`,
    at: r.at,
    routed: 'the text is in a code editor: clicked where the caret goes before it, as the caret step does',
  };
}
