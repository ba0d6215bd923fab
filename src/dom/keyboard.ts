// Trusted keyboard input, the way a person's keyboard produces it: modifiers pressed in order,
// the key with the text it types, releases in reverse; text typed key by key. Every CDP call is
// bounded by the step's deadline. Which element gets the keys is left to focus (focus-target.ts).

import type { Deadline } from '../common/index.js';
import type { CdpSession, Protocol } from '../cdp/index.js';
import { editDistance } from '../shared/index.js';
import { editingCommands, type KeyCombo } from './key-combo.js';
import {
  knownKeyNames,
  lookupKey,
  modifierBit,
  MODIFIERS,
  type KeyDefinition,
  type ModifierName,
} from './key-definitions.js';

type KeyEvent = Protocol.Input.DispatchKeyEventRequest;

/** How long releases may take once a press failed at its deadline (the runner allows 2 s of grace). */
const RELEASE_WAIT_MS = 1_000;
const TEXT_SUPPRESSING = modifierBit('Alt') | modifierBit('Control') | modifierBit('Meta');

function modifierOf(def: KeyDefinition): ModifierName | undefined {
  return (MODIFIERS as string[]).includes(def.key) ? (def.key as ModifierName) : undefined;
}

function keyEvent(type: KeyEvent['type'], def: KeyDefinition, modifiers: number): KeyEvent {
  return {
    type,
    modifiers,
    key: def.key,
    code: def.code,
    windowsVirtualKeyCode: def.keyCode,
    nativeVirtualKeyCode: def.keyCode,
    autoRepeat: false,
    isKeypad: def.location === 3,
    location: def.location ?? 0,
  };
}

async function dispatch(session: CdpSession, event: KeyEvent, deadline: Deadline): Promise<void> {
  await deadline.race(
    session.send('Input.dispatchKeyEvent', event),
    `the page to take the ${event.type === 'keyUp' ? 'release' : 'press'} of "${event.key}"`,
  );
}

/** keyDown (with text when the key types and no Control/Alt/Meta is held) or rawKeyDown. */
async function keyDown(session: CdpSession, def: KeyDefinition, modifiers: number, deadline: Deadline): Promise<void> {
  const commands = editingCommands(def.code, modifiers);
  const typesText = def.text !== undefined && !(modifiers & TEXT_SUPPRESSING);
  const event = keyEvent(typesText ? 'keyDown' : 'rawKeyDown', def, modifiers);
  if (typesText) {
    event.text = def.text;
    event.unmodifiedText = def.text;
  }
  if (commands.length) event.commands = commands;
  await dispatch(session, event, deadline);
}

/** Presses a parsed combination once: holds the modifiers in order, presses the key, releases all. */
export async function pressCombo(session: CdpSession, combo: KeyCombo, deadline: Deadline): Promise<void> {
  let modifiers = 0;
  const down: KeyDefinition[] = [];
  try {
    for (const def of combo.keys) {
      const modifier = modifierOf(def);
      if (modifier) modifiers |= modifierBit(modifier);
      down.push(def);
      await keyDown(session, def, modifiers, deadline);
    }
  } finally {
    // Release what went down even after a failure, or the page would see keys stuck down. The
    // releases are queued in order at once; a hung page gets RELEASE_WAIT_MS past the deadline.
    const releases = down.reverse().map((def) => {
      const modifier = modifierOf(def);
      if (modifier) modifiers &= ~modifierBit(modifier);
      return session.send('Input.dispatchKeyEvent', keyEvent('keyUp', def, modifiers));
    });
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(RELEASE_WAIT_MS, deadline.remainingMs()));
    });
    await Promise.race([Promise.all(releases), giveUp])
      .catch(() => {
        /* the tab is gone: there is nothing left to release keys in */
      })
      .finally(() => clearTimeout(timer));
  }
}

export interface TypeOutcome {
  /** Characters typed as key presses. */
  keyed: number;
  /** Characters with no key on a US keyboard (accents, emoji, CJK), inserted as text input. */
  inserted: number;
}

/** Splits text into key presses and runs of characters no key types ("héllo" → h, "é", l, l, o). */
export function typingPlan(text: string): ({ key: KeyDefinition; char: string } | { insert: string })[] {
  const plan: ({ key: KeyDefinition; char: string } | { insert: string })[] = [];
  for (const char of text.replace(/\r\n/g, '\n')) {
    const key = lookupKey(char);
    const last = plan[plan.length - 1];
    if (key) plan.push({ key, char });
    else if (last && 'insert' in last) last.insert += char;
    else plan.push({ insert: char });
  }
  return plan;
}

/**
 * Types `text` into whatever has focus: a keyDown (with its text) and keyUp per character on the
 * keyboard ("\n" is Enter, "\t" Tab), Input.insertText for characters without a key, so every
 * character lands. `delayMs` passes between keystrokes. A timeout says how far typing got.
 */
export async function typeText(
  session: CdpSession,
  text: string,
  delayMs: number,
  deadline: Deadline,
): Promise<TypeOutcome> {
  const plan = typingPlan(text);
  const outcome: TypeOutcome = { keyed: 0, inserted: 0 };
  const total = [...text.replace(/\r\n/g, '\n')].length;
  for (const [i, step] of plan.entries()) {
    if (i > 0 && delayMs > 0) await deadline.sleep(delayMs);
    if (deadline.expired())
      throw deadline.timeoutError(
        `typing to finish (${outcome.keyed + outcome.inserted} of ${total} characters typed)`,
      );
    if ('insert' in step) {
      await deadline.race(session.send('Input.insertText', { text: step.insert }), 'the page to take inserted text');
      outcome.inserted += [...step.insert].length;
    } else {
      await keyDown(session, step.key, 0, deadline);
      await dispatch(session, keyEvent('keyUp', step.key, 0), deadline);
      outcome.keyed++;
    }
  }
  return outcome;
}

/** "Unknown key …" with the nearest known name. */
export async function unknownKeyWarning(token: string, combo: string): Promise<string> {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of knownKeyNames()) {
    const d = editDistance(token.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  const hint = best && bestDistance <= Math.max(2, Math.floor(token.length / 3)) ? ` Did you mean "${best}"?` : '';
  const where = token === combo ? '' : ` in "${combo}"`;
  return `Unknown key "${token}"${where}: nothing was pressed.${hint}`;
}
