// Console errors and warnings of one command, from Runtime events (no sleeps). Runtime.enable
// replays the page's earlier messages; those predate the command and are ignored by timestamp.

import { MAX_CONSOLE_MESSAGES } from '../common/index.js';
import type { CdpSession, Protocol } from '../cdp/index.js';
import { capText as cap, formatConsoleArgs } from './console-log.js';

export interface ConsoleReport {
  errors?: string[];
  warnings?: string[];
  /** Messages beyond the cap, counted, not shown. */
  more?: number;
}

function where(frame: Protocol.Runtime.CallFrame | undefined): string {
  if (!frame?.url || frame.url.startsWith('cdp-skill/')) return '';
  return ` (${frame.url}:${frame.lineNumber + 1}:${frame.columnNumber + 1})`;
}

export class ConsoleCollector {
  readonly #errors: string[] = [];
  readonly #warnings: string[] = [];
  #more = 0;
  readonly #off: (() => void)[];

  constructor(session: CdpSession, sinceMs: number) {
    this.#off = [
      session.on('Runtime.consoleAPICalled', (e) => {
        if (e.timestamp < sinceMs) return;
        const level =
          e.type === 'error' || e.type === 'assert' ? 'error' : e.type === 'warning' ? 'warning' : undefined;
        if (!level) return;
        const text = formatConsoleArgs(e.args) + where(e.stackTrace?.callFrames[0]);
        this.#push(level, text);
      }),
      session.on('Runtime.exceptionThrown', (e) => {
        if (e.timestamp < sinceMs) return;
        const d = e.exceptionDetails;
        const text = (d.exception?.description?.split('\n')[0] ?? d.text) + where(d.stackTrace?.callFrames[0]);
        this.#push('error', text);
      }),
    ];
  }

  /** Stops listening (a kept session outlives the command; its listeners must not pile up). */
  stop(): void {
    for (const off of this.#off.splice(0)) off();
  }

  #push(level: 'error' | 'warning', text: string): void {
    const list = level === 'error' ? this.#errors : this.#warnings;
    if (this.#errors.length + this.#warnings.length >= MAX_CONSOLE_MESSAGES) {
      this.#more++;
      return;
    }
    list.push(cap(text));
  }

  report(): ConsoleReport | undefined {
    if (!this.#errors.length && !this.#warnings.length) return undefined;
    return {
      ...(this.#errors.length ? { errors: [...this.#errors] } : {}),
      ...(this.#warnings.length ? { warnings: [...this.#warnings] } : {}),
      ...(this.#more ? { more: this.#more } : {}),
    };
  }
}
