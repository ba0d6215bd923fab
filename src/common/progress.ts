// The command's clock: by when it must answer, what it is doing, and what it is waiting on right
// now (CDP commands, handshakes, probes, locks), so an answer forced by the clock can say what was
// pending. Work that must not outlive an abandoned command (a half-launched Chrome, held locks)
// registers a clean-up that runs, synchronously, before the process exits.

/** Time the answer may take beyond the timeout: the margin the watchdog keeps for writing it. */
export const ANSWER_MARGIN_MS = 500;

/**
 * Node's start, the connection and the attach count against the first step's timeout (a frozen
 * Chrome still answers within timeout + ANSWER_MARGIN_MS), but the first window is never shorter
 * than this: a `wait` of 200 ms must not fail because a loaded machine took 300 ms to start Node.
 */
export const MIN_FIRST_WINDOW_MS = 1_000;

/** The first step's window from the process's start: its timeout, at least MIN_FIRST_WINDOW_MS. */
export function firstWindowMs(timeoutMs: number): number {
  return Math.max(timeoutMs, MIN_FIRST_WINDOW_MS);
}

/** When the first step's `timeoutMs` starts counting: so that it ends with the first window, or now if that is sooner. */
export function firstStepStart(timeoutMs: number): number {
  return Math.min(Date.now(), progress.startedAt + firstWindowMs(timeoutMs) - timeoutMs);
}

export interface Progress {
  startedAt: number;
  /** When the command must have answered (timeout of the running step + margin). */
  deadlineAt: number;
  /** The timeout that window was given, for the message. */
  windowMs: number;
  /** What the command is doing: "attaching to t1", "step 2 (goto)", "capture after the steps". */
  phase: string;
  /** The step results so far (the runner's own array). */
  steps?: unknown[];
  /** The failure of the running step, known before its failure context is gathered. */
  failed?: { action: string; status: 'error'; error: string; errorType?: string; category: string; type: string };
  tab?: string;
  /** What the command's downloads are known to be now (an answer the deadline cuts short still tells them). */
  downloads?: () => unknown[];
  /** The command's first step and its own timeout (its window may be longer: MIN_FIRST_WINDOW_MS). */
  firstStep?: { action: string; timeoutMs: number };
}

/** The phase after the steps: the look at the page (screenshot, snapshot, diff). */
export const CAPTURE_PHASE = 'the capture after the steps';

/** One command's clock: its progress and what it waits on. The CLI has one per process. */
export interface Clock {
  progress: Progress;
  pending: Map<number, string>;
}

/** A new command's clock, started at `startedAt`. */
export function newClock(startedAt: number): Clock {
  return { progress: { startedAt, deadlineAt: Infinity, windowMs: 0, phase: 'starting' }, pending: new Map() };
}

// From the process's start, not this module's: the caller's clock starts there. Not
// performance.timeOrigin (the same instant within a millisecond): the global `performance` loads
// perf_hooks and ten modules behind it, a few milliseconds of every call.
const processClock = newClock(Math.round(Date.now() - process.uptime() * 1000));
let currentClock: () => Clock = () => processClock;

/**
 * Where the running command's clock comes from. The CLI runs one command per process (the process
 * clock); the MCP server runs calls side by side and hands each its own (an AsyncLocalStorage
 * lookup), so a call's deadline, phase and pending work never mix with another's.
 */
export function setClockSource(source: () => Clock | undefined): void {
  currentClock = () => source() ?? processClock;
}

/**
 * The running command's progress. A view onto the current clock's (see setClockSource), so the
 * code that reads and writes it is the same whether one command runs per process or many at once.
 */
export const progress: Progress = new Proxy({} as Progress, {
  get: (_, key) => Reflect.get(currentClock().progress, key),
  set: (_, key, value) => Reflect.set(currentClock().progress, key, value),
});

/** Opens the time window of a step: the command must answer within `timeoutMs` from `from`, plus the margin. */
export function openWindow(timeoutMs: number, phase: string, from = Date.now()): void {
  progress.failed = undefined;
  progress.deadlineAt = from + timeoutMs + ANSWER_MARGIN_MS;
  progress.windowMs = timeoutMs;
  progress.phase = phase;
}

let nextPending = 1;

/** Marks `what` as pending until the returned function is called (or `promise` settles). */
export function pendingStart(what: string): () => void {
  const id = nextPending++;
  const { pending } = currentClock();
  pending.set(id, what);
  return () => {
    pending.delete(id);
  };
}

export function tracked<T>(what: string, promise: Promise<T>): Promise<T> {
  const done = pendingStart(what);
  promise.then(done, done);
  return promise;
}

/** What is pending now, oldest first, without repeats (at most `max`). */
export function pendingNow(max = 4): string[] {
  const seen = [...new Set(currentClock().pending.values())];
  return seen.length > max ? [...seen.slice(0, max), `${seen.length - max} more`] : seen;
}

const cleanUps = new Set<() => void>();

/** Registers work to undo if the process exits before it is done; call the result when it is. */
export function onAbandon(cleanUp: () => void): () => void {
  cleanUps.add(cleanUp);
  return () => {
    cleanUps.delete(cleanUp);
  };
}

/** Runs every registered clean-up (best effort, synchronous): the process is about to exit. */
export function abandonAll(): void {
  for (const cleanUp of [...cleanUps]) {
    cleanUps.delete(cleanUp);
    try {
      cleanUp();
    } catch {
      /* exiting anyway: one failed clean-up must not stop the others */
    }
  }
}
