// A step owns one Deadline; every wait below it races against it, so no wait outlives its step
// and a timeout names what it waited for.

import { TimeoutError } from './errors.js';

/** A timeout noticed this much later than due reports the time that really passed. */
const LATE_MS = 100;

export class Deadline {
  readonly #endsAt: number;
  readonly #totalMs: number;
  readonly #startedAt: number;

  private constructor(totalMs: number, from: number) {
    this.#totalMs = totalMs;
    this.#startedAt = from;
    this.#endsAt = from + totalMs;
  }

  /** `ms` from now, or from `from` (a time already started: the command's start for its first step). */
  static after(ms: number, from = Date.now()): Deadline {
    return new Deadline(ms, from);
  }

  get totalMs(): number {
    return this.#totalMs;
  }

  remainingMs(): number {
    return Math.max(0, this.#endsAt - Date.now());
  }

  expired(): boolean {
    return this.remainingMs() === 0;
  }

  /** A deadline that ends at the earlier of this one and `ms` from now. */
  cap(ms: number): Deadline {
    return new Deadline(Math.min(ms, this.remainingMs()), Date.now());
  }

  /** The time that really passed is named when it is not the timeout (a blocked event loop, a late check). */
  timeoutError(what: string): TimeoutError {
    const elapsed = Date.now() - this.#startedAt;
    const after = elapsed - this.#totalMs > LATE_MS ? `${elapsed}ms (timeout ${this.#totalMs}ms)` : `${this.#totalMs}ms`;
    return new TimeoutError(`Timed out after ${after} waiting for ${what}`);
  }

  /** Resolves with `promise`, or rejects with a TimeoutError naming `what` when time runs out. */
  race<T>(promise: Promise<T>, what: string): Promise<T> {
    const left = this.remainingMs();
    if (left === 0) {
      promise.catch(() => { /* the caller has moved on; the late outcome is irrelevant */ });
      return Promise.reject(this.timeoutError(what));
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(this.timeoutError(what)), left);
      promise.then(
        (value) => { clearTimeout(timer); resolve(value); },
        (err: unknown) => { clearTimeout(timer); reject(err); },
      );
    });
  }

  /** Sleeps `ms`, cut short at the deadline (never throws). */
  sleep(ms: number): Promise<void> {
    const wait = Math.min(ms, this.remainingMs());
    return new Promise((resolve) => setTimeout(resolve, wait));
  }
}
