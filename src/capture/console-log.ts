// The console step's messages (SPEC §11.14, §17.2): read by replay — a private session on the tab
// enables Runtime and Log, and Chrome replays what the page logged (also before this invocation)
// before answering; `clear` discards Chrome's stored messages so they don't come back next call.

import { MAX_CONSOLE_TEXT, type Deadline } from '../common/index.js';
import { attachToTarget, type CdpSession, type Connection, type Protocol } from '../cdp/index.js';

/** SPEC §17.2: the most messages held; the oldest are dropped beyond it. */
export const CONSOLE_BUFFER_SIZE = 10_000;
const MAX_STACK_FRAMES = 10;

export type ConsoleLevel = 'error' | 'warning' | 'info' | 'log' | 'debug';

export interface StackFrame {
  fn?: string;
  url: string;
  line: number;
  col: number;
}

export interface ConsoleMessage {
  level: ConsoleLevel;
  /** `console` (console API), `exception` (uncaught), or the browser's source: network, security, violation, … */
  type: string;
  text: string;
  url?: string;
  line?: number;
  timestamp: number;
  stack?: StackFrame[];
}

function previewText(p: Protocol.Runtime.ObjectPreview): string {
  const props = p.properties.map((x) =>
    p.subtype === 'array'
      ? (x.value ?? x.type)
      : `${x.name}: ${x.type === 'string' ? JSON.stringify(x.value ?? '') : (x.value ?? x.type)}`,
  );
  const more = p.overflow ? ', …' : '';
  return p.subtype === 'array' ? `[${props.join(', ')}${more}]` : `{${props.join(', ')}${more}}`;
}

/** One console argument as DevTools would print it (strings bare, objects by preview or description). */
export function describeArg(arg: Protocol.Runtime.RemoteObject): string {
  if (arg.type === 'string') return String(arg.value);
  if (arg.unserializableValue) return arg.unserializableValue;
  if (arg.type === 'undefined') return 'undefined';
  if (arg.subtype === 'null') return 'null';
  if (arg.value !== undefined) return typeof arg.value === 'object' ? JSON.stringify(arg.value) : String(arg.value);
  if (arg.preview && (arg.subtype === 'array' || (!arg.subtype && arg.type === 'object')))
    return previewText(arg.preview);
  return arg.description ?? arg.type;
}

/** console.log arguments as one line, with %s %d %i %f %o %O %c substituted as the console does. */
export function formatConsoleArgs(args: Protocol.Runtime.RemoteObject[]): string {
  const [first, ...rest] = args;
  if (!first) return '';
  if (first.type !== 'string' || !/%[sdifoOc]/.test(String(first.value))) return args.map(describeArg).join(' ');
  let i = 0;
  const head = String(first.value).replace(/%([sdifoOc%])/g, (m, spec: string) => {
    if (spec === '%') return '%';
    if (i >= rest.length) return m;
    const arg = rest[i++]!;
    if (spec === 'c') return '';
    if (spec === 'd' || spec === 'i') return arg.type === 'number' ? String(Math.trunc(Number(arg.value))) : 'NaN';
    if (spec === 'f') return arg.type === 'number' ? String(arg.value) : 'NaN';
    return describeArg(arg);
  });
  return [head, ...rest.slice(i).map(describeArg)].join(' ');
}

export function capText(text: string, max = MAX_CONSOLE_TEXT): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function ownFrames(trace: Protocol.Runtime.StackTrace | undefined): Protocol.Runtime.CallFrame[] {
  return (trace?.callFrames ?? []).filter((f) => !f.url.startsWith('cdp-skill/'));
}

function stackOf(frames: Protocol.Runtime.CallFrame[]): StackFrame[] {
  return frames.slice(0, MAX_STACK_FRAMES).map((f) => ({
    ...(f.functionName ? { fn: f.functionName } : {}),
    url: f.url,
    line: f.lineNumber + 1,
    col: f.columnNumber + 1,
  }));
}

function levelOf(type: Protocol.Runtime.ConsoleAPICalledEvent['type']): ConsoleLevel {
  if (type === 'error' || type === 'assert') return 'error';
  if (type === 'warning') return 'warning';
  if (type === 'info') return 'info';
  if (type === 'debug') return 'debug';
  return 'log';
}

function where(frames: Protocol.Runtime.CallFrame[], url?: string, line?: number): { url?: string; line?: number } {
  const top = frames[0];
  if (top) return { url: top.url, line: top.lineNumber + 1 };
  return { ...(url ? { url } : {}), ...(line !== undefined ? { line: line + 1 } : {}) };
}

export function fromConsoleApi(e: Protocol.Runtime.ConsoleAPICalledEvent): ConsoleMessage | undefined {
  // Group markers and console.clear carry no message of their own.
  if (e.type === 'endGroup' || e.type === 'clear') return undefined;
  const frames = ownFrames(e.stackTrace);
  const text = e.type === 'assert' && !e.args.length ? 'Assertion failed' : formatConsoleArgs(e.args);
  return {
    level: levelOf(e.type),
    type: 'console',
    text: capText(text),
    ...where(frames),
    timestamp: Math.round(e.timestamp),
    ...(frames.length ? { stack: stackOf(frames) } : {}),
  };
}

export function fromException(e: Protocol.Runtime.ExceptionThrownEvent): ConsoleMessage {
  const d = e.exceptionDetails;
  const frames = ownFrames(d.stackTrace);
  const text = d.exception?.description?.split('\n')[0] ?? d.text;
  return {
    level: 'error',
    type: 'exception',
    text: capText(text),
    ...where(frames, d.url, d.lineNumber),
    timestamp: Math.round(e.timestamp),
    ...(frames.length ? { stack: stackOf(frames) } : {}),
  };
}

export function fromLogEntry(e: Protocol.Log.EntryAddedEvent): ConsoleMessage {
  const x = e.entry;
  const level: ConsoleLevel = x.level === 'verbose' ? 'debug' : x.level;
  const frames = ownFrames(x.stackTrace);
  return {
    level,
    type: x.source,
    text: capText(x.text),
    ...where(frames, x.url, x.lineNumber),
    timestamp: Math.round(x.timestamp),
    ...(frames.length ? { stack: stackOf(frames) } : {}),
  };
}

/** Object arguments given a JSON preview (replayed messages come without one), newest first. */
const MAX_PREVIEWS = 50;
const PREVIEW_FN = `function () {
  try { const s = JSON.stringify(this); return s === undefined ? null : s.length > 300 ? s.slice(0, 299) + '…' : s; } catch { return null; }
}`;

/** Replayed console calls carry objects without previews: ask for a short JSON of the newest few. */
async function addPreviews(
  session: CdpSession,
  events: Protocol.Runtime.ConsoleAPICalledEvent[],
  deadline: Deadline,
): Promise<void> {
  const args = events
    .flatMap((e) => e.args)
    .filter((a) => a.objectId && !a.preview && a.type === 'object' && a.subtype !== 'node' && a.subtype !== 'null');
  await deadline.race(
    Promise.all(
      args.slice(-MAX_PREVIEWS).map(async (a) => {
        try {
          const r = await session.send('Runtime.callFunctionOn', {
            objectId: a.objectId!,
            functionDeclaration: PREVIEW_FN,
            returnByValue: true,
          });
          if (typeof r.result.value === 'string') a.description = r.result.value;
        } catch {
          // The object's page is gone: its description ("Object") stands.
        }
      }),
    ),
    'console argument previews',
  );
}

/** Collects the replayed messages of a session while Runtime and Log are enabled on it. */
async function replay(session: CdpSession, clear: boolean, deadline: Deadline): Promise<ConsoleMessage[]> {
  const messages: (ConsoleMessage | Protocol.Runtime.ConsoleAPICalledEvent)[] = [];
  const calls: Protocol.Runtime.ConsoleAPICalledEvent[] = [];
  const push = (m: ConsoleMessage | Protocol.Runtime.ConsoleAPICalledEvent | undefined): void => {
    if (!m) return;
    messages.push(m);
    if (messages.length > CONSOLE_BUFFER_SIZE) messages.shift();
  };
  const offs = [
    session.on('Runtime.consoleAPICalled', (e) => {
      calls.push(e);
      push(e);
    }),
    session.on('Runtime.exceptionThrown', (e) => push(fromException(e))),
    // Console API calls and exceptions come through Runtime; Log adds the browser's own messages
    // (failed loads, CSP, interventions). Its 'javascript' entries would repeat Runtime's.
    session.on('Log.entryAdded', (e) => {
      if (e.entry.source !== 'javascript') push(fromLogEntry(e));
    }),
  ];
  try {
    // Chrome sends the stored messages before it answers enable, so once both answer, all are here.
    await deadline.race(
      Promise.all([session.send('Runtime.enable'), session.send('Log.enable')]),
      'the console messages',
    );
    for (const off of offs) off();
    await addPreviews(session, calls.slice(-MAX_PREVIEWS), deadline);
    if (clear)
      await deadline.race(
        Promise.all([session.send('Runtime.discardConsoleEntries'), session.send('Log.clear')]),
        'clearing the console',
      );
  } finally {
    for (const off of offs) off();
  }
  const out = messages.map((m) => ('args' in m ? fromConsoleApi(m) : m)).filter((m): m is ConsoleMessage => !!m);
  return out.sort((a, b) => a.timestamp - b.timestamp);
}

/** Every message the tab's page still holds (Chrome keeps about the last 1,000 of each kind per page). */
export async function readConsoleLog(
  conn: Connection,
  targetId: string,
  clear: boolean,
  deadline: Deadline,
): Promise<ConsoleMessage[]> {
  const session = await deadline.race(attachToTarget(conn, targetId), 'a console session');
  try {
    return await replay(session, clear, deadline);
  } finally {
    conn
      .browser()
      .send('Target.detachFromTarget', { sessionId: session.id! })
      .catch(() => {
        /* the tab is gone, and the session with it */
      });
  }
}
