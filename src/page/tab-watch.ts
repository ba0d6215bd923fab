// Whether the tab is still there for the command: its renderer crashing, the tab closed or
// detached (by us, another program or agent) or the connection to Chrome lost each end it, once,
// with an error that says which — for whatever is waiting on the tab (Page.guard).

import { ConnectionError, PageCrashedError } from '../common/index.js';
import type { CdpSession, Connection } from '../cdp/index.js';

export class TabWatch {
  /** Rejects with the first fatal error; never resolves. */
  readonly fatal: Promise<never>;
  #error: Error | undefined;

  constructor(conn: Connection, session: CdpSession, targetId: string) {
    let fail: (err: Error) => void = () => {};
    this.fatal = new Promise<never>((_, reject) => {
      fail = reject;
    });
    this.fatal.catch(() => {
      /* observed through Page.guard(); an unobserved fatal is not an error by itself */
    });
    const die = (err: Error): void => {
      if (this.#error) return;
      this.#error = err;
      fail(err);
    };
    session.on('Inspector.targetCrashed', () =>
      die(
        new PageCrashedError(
          'The tab crashed (renderer process gone). Reload it with {"reload": true} or open a new tab.',
        ),
      ),
    );
    conn.browser().on('Target.targetDestroyed', (e) => {
      if (e.targetId === targetId) die(new ConnectionError('The tab was closed while the command ran.'));
    });
    conn.browser().on('Target.detachedFromTarget', (e) => {
      if (e.sessionId === session.id)
        die(new ConnectionError('The tab was detached (closed or taken over) while the command ran.'));
    });
    // A tab closed by another program also says "Render process gone": ask whether the target still exists.
    session.on('Inspector.detached', (e) => {
      const closed = (): void =>
        die(new ConnectionError('The tab was closed (by another program or agent) while the command ran.'));
      conn
        .browser()
        .sendWith('Target.getTargetInfo', { targetId }, { timeoutMs: 1_000 })
        .then(() => die(new ConnectionError(`The tab was detached: ${e.reason}.`)), closed);
    });
    conn.onClose((reason) => die(new ConnectionError(`Lost connection to Chrome: ${reason}`)));
  }

  /** The error that ended the tab, if one did. */
  get error(): Error | undefined {
    return this.#error;
  }
}
