// A step owns one Deadline; every wait below it races against it, so no wait outlives its step
// and a timeout names what it waited for, ending with the step's call log (what each wait tried).

import { TimeoutError } from './errors.js';

/** Entries a call log keeps; a timeout message shows the last few, capped in characters. */
const LOG_KEPT = 20;
const LOG_SHOWN = 5;
const LOG_MAX_CHARS = 300;

interface LogEntry {
  text: string;
  count: number;
}
/** A timeout noticed this much later than due reports the time that really passed. */
const LATE_MS = 100;

export class Deadline {
  readonly #endsAt: number;
  readonly #totalMs: number;
  /** Shared with the deadlines cap() derives: one log per step. */
  readonly #log: LogEntry[];
  readonly #startedAt: number;
  /** Facts the step's answer carries whichever layer learnt them (a list scrolled to find the target); shared like the log. */
  readonly #notes: Record<string, unknown>;

  private constructor(totalMs: number, from: number, log: LogEntry[] = [], notes: Record<string, unknown> = {}) {
    this.#totalMs = totalMs;
    this.#startedAt = from;
    this.#endsAt = from + totalMs;
    this.#log = log;
    this.#notes = notes;
  }

  /** Adds a fact to the step's output (runner/step-run.ts merges them). */
  note(key: string, value: unknown): void {
    this.#notes[key] = value;
  }

  notes(): Record<string, unknown> {
    return this.#notes;
  }

  /** `ms` from now, or from `from` (a time already started: the command's start for its first step). */
  static after(ms: number, from = Date.now()): Deadline {
    return new Deadline(ms, from);
  }

  get totalMs(): number {
    return this.#totalMs;
  }

  /** Time since this deadline's window opened (for the first step, since the command started). */
  elapsedMs(): number {
    return Date.now() - this.#startedAt;
  }

  remainingMs(): number {
    return Math.max(0, this.#endsAt - Date.now());
  }

  expired(): boolean {
    return this.remainingMs() === 0;
  }

  /** A deadline that ends at the earlier of this one and `ms` from now, writing to the same call log. */
  cap(ms: number): Deadline {
    return new Deadline(Math.min(ms, this.remainingMs()), Date.now(), this.#log, this.#notes);
  }

  /** A deadline `ms` longer than this one, made alongside it, writing to the same call log (the runner's hard stop). */
  extended(ms: number): Deadline {
    return new Deadline(this.#totalMs + ms, this.#startedAt, this.#log, this.#notes);
  }

  /**
   * Records what a wait is doing ("waiting for #save to be visible", "… is covered by div.modal —
   * retrying"), as Playwright's Progress does. The same entry again is counted, not repeated.
   */
  log(entry: string): void {
    const last = this.#log.at(-1);
    if (last?.text === entry) {
      last.count++;
      return;
    }
    this.#log.push({ text: entry, count: 1 });
    if (this.#log.length > LOG_KEPT) this.#log.shift();
  }

  /** The last entries of the call log, at most LOG_MAX_CHARS; '' when nothing was logged. */
  callLog(except?: string): string {
    const shown = this.#log
      .filter((e) => e.text !== except)
      .slice(-LOG_SHOWN)
      .map((e) => (e.count > 1 ? `${e.text} (×${e.count})` : e.text));
    const text = shown.join('; ');
    return text.length > LOG_MAX_CHARS ? `…${text.slice(-(LOG_MAX_CHARS - 1))}` : text;
  }

  /** `message`, ending with the call log when there is one. */
  withCallLog(message: string, except?: string): string {
    const log = this.callLog(except);
    return log ? `${message}. Call log: ${log}` : message;
  }

  /** The time that really passed is named when it is not the timeout (a blocked event loop, a late check). */
  timeoutError(what: string): TimeoutError {
    const elapsed = Date.now() - this.#startedAt;
    const after =
      elapsed - this.#totalMs > LATE_MS ? `${elapsed}ms (timeout ${this.#totalMs}ms)` : `${this.#totalMs}ms`;
    return new TimeoutError(this.withCallLog(`Timed out after ${after} waiting for ${what}`, `waiting for ${what}`));
  }

  /**
   * Resolves with `promise`, or rejects with a TimeoutError naming `what` when time runs out;
   * `pending` then says what was still outstanding (it goes into the call log).
   */
  race<T>(promise: Promise<T>, what: string, pending?: () => string | undefined): Promise<T> {
    const left = this.remainingMs();
    const timeout = (): TimeoutError => {
      const still = pending?.();
      if (still) this.log(still);
      return this.timeoutError(what);
    };
    if (left === 0) {
      promise.catch(() => {
        /* the caller has moved on; the late outcome is irrelevant */
      });
      return Promise.reject(timeout());
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(timeout()), left);
      promise.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  }

  /** Sleeps `ms`, cut short at the deadline (never throws). */
  sleep(ms: number): Promise<void> {
    const wait = Math.min(ms, this.remainingMs());
    return new Promise((resolve) => setTimeout(resolve, wait));
  }
}
