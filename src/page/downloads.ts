// Downloads during one command (issue 21.3): Chrome is told to save them under guid names in
// downloads/.incoming with events on (Browser.setDownloadBehavior allowAndName — the setting ends
// with our connection, measured on Chromium 156, so every command sets it again); each finished file
// is moved to its name (downloads-folder.ts). A step waits for the downloads it started, within
// its deadline; what is still running when the command ends is found by the next command.

import { basename, join } from 'node:path';
import { incomingDownloadsDir, type Deadline } from '../common/index.js';
import type { CdpSession, Connection, EventPayload } from '../cdp/index.js';
import {
  collectLanded,
  downloadTarget,
  dropRecord,
  placeDownload,
  safeName,
  writeRecord,
  type DownloadReport,
  type DownloadState,
} from './downloads-folder.js';

/** How long the check "was this download started by our tab?" may take before it counts as not. */
const OWNER_CHECK_MS = 1_000;

interface Download {
  readonly guid: string;
  readonly seq: number;
  readonly name: string;
  /** The path the step that started it named. */
  readonly target?: string;
  state: DownloadState;
  receivedBytes: number;
  /** Whether our tab (a frame of it, or a tab it opened) started it; settled before the report. */
  ours: Promise<boolean>;
  /** `ours` once settled. */
  mine?: boolean;
  report?: DownloadReport;
}

/** Whether a download begun in `frameId` is our tab's: one of its frames, or a tab it opened. */
async function startedBy(conn: Connection, session: CdpSession, targetId: string, frameId: string): Promise<boolean> {
  if (frameId === targetId) return true;
  const { frameTree } = await session.send('Page.getFrameTree');
  const frames: string[] = [];
  const walk = (t: typeof frameTree): void => {
    frames.push(t.frame.id);
    for (const c of t.childFrames ?? []) walk(c);
  };
  walk(frameTree);
  if (frames.includes(frameId)) return true;
  const { targetInfo } = await conn.browser().send('Target.getTargetInfo', { targetId: frameId });
  return targetInfo.openerId === targetId;
}

/** A download as the answer tells it: where it landed, or how far it got. */
const reportOf = (d: Download): DownloadReport =>
  d.report ?? { name: d.name, ...(d.receivedBytes ? { bytes: d.receivedBytes } : {}), state: 'inProgress' };

export class DownloadWatch {
  readonly #items = new Map<string, Download>();
  readonly #off: (() => void)[] = [];
  readonly #isOurs: (frameId: string) => Promise<boolean>;
  #target: string | undefined;
  #seq = 0;
  #wake: () => void = () => {};
  #changed = this.#newChange();

  private constructor(isOurs: (frameId: string) => Promise<boolean>) {
    this.#isOurs = isOurs;
  }

  /**
   * Starts following the downloads of the tab `targetId` in its browser context. Chrome only
   * sends events to the client that set the behaviour, so it is set by each command.
   */
  static async start(conn: Connection, session: CdpSession, targetId: string): Promise<DownloadWatch> {
    const browser = conn.browser();
    const watch = new DownloadWatch((frameId) => startedBy(conn, session, targetId, frameId));
    watch.#off.push(
      browser.on('Browser.downloadWillBegin', (e) => watch.#begin(e)),
      browser.on('Browser.downloadProgress', (e) => watch.#progress(e)),
    );
    const arm = (browserContextId?: string) =>
      browser.send('Browser.setDownloadBehavior', {
        behavior: 'allowAndName',
        downloadPath: incomingDownloadsDir(),
        eventsEnabled: true,
        ...(browserContextId ? { browserContextId } : {}),
      });
    // Most tabs live in the default context: it is armed at once, while the tab's context is asked.
    const [{ targetInfo }, { defaultBrowserContextId }] = await Promise.all([
      browser.send('Target.getTargetInfo', { targetId }),
      browser.send('Target.getBrowserContexts'),
      arm(),
    ]);
    const context = targetInfo.browserContextId;
    if (context && context !== defaultBrowserContextId) await arm(context);
    return watch;
  }

  #newChange(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  #notify(): void {
    const wake = this.#wake;
    this.#changed = this.#newChange();
    wake();
  }

  #begin(e: EventPayload<'Browser.downloadWillBegin'>): void {
    const name = safeName(e.suggestedFilename);
    const ours = Promise.race([
      this.#isOurs(e.frameId).catch(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(false), OWNER_CHECK_MS).unref()),
    ]);
    const item: Download = {
      guid: e.guid,
      seq: this.#seq++,
      name,
      ...(this.#target ? { target: this.#target } : {}),
      state: 'inProgress',
      receivedBytes: 0,
      ours,
    };
    this.#items.set(e.guid, item);
    // The record is written by the process whose tab started the download, once that is known:
    // every client Chrome sends the event to sees it, and another's record written after this one
    // dropped its own would be left behind for good (measured: two MCP servers on one Chrome).
    void ours.then((mine) => {
      item.mine = mine;
      if (!mine) return;
      try {
        writeRecord(e.guid, { name, ...(item.target ? { target: item.target } : {}) });
      } catch {
        // Without the record the next command cannot name the file; this command still can.
      }
    });
    this.#notify();
  }

  #progress(e: EventPayload<'Browser.downloadProgress'>): void {
    const item = this.#items.get(e.guid);
    if (!item || item.state !== 'inProgress') return;
    item.receivedBytes = e.receivedBytes;
    if (e.state === 'inProgress') return;
    item.state = e.state;
    if (e.state === 'canceled') {
      item.report = { name: item.name, state: 'canceled' };
      item.ours = item.ours.then((ours) => {
        if (ours) dropRecord(item.guid); // after the record was written (both wait for the owner check)
        return ours;
      });
    } else {
      item.ours = item.ours.then((ours) => {
        // Only our own are moved now: another tab's command, or the next command, reports the rest.
        if (ours) this.#place(item, e.filePath ?? join(incomingDownloadsDir(), item.guid));
        return ours;
      });
    }
    this.#notify();
  }

  #place(item: Download, file: string): void {
    try {
      item.report = placeDownload(file, item.name, item.target) ?? { name: item.name, state: 'completed' };
      dropRecord(item.guid);
    } catch {
      // Not movable (a full disk, a path the step named that cannot be written): it stays where
      // Chrome put it, and the answer says where.
      item.report = { name: basename(file), path: file, state: 'completed' };
    }
  }

  /** Downloads that begin from now on go to `path` (as the step named it); returns a mark. */
  expect(path: string | undefined): number {
    this.#target = path === undefined ? undefined : downloadTarget(path);
    return this.#seq;
  }

  async #oursSince(mark: number): Promise<Download[]> {
    const since = [...this.#items.values()].filter((d) => d.seq >= mark);
    const owned = await Promise.all(since.map((d) => d.ours));
    return since.filter((_, i) => owned[i]);
  }

  /**
   * Waits, within the step's deadline, for the downloads our tab began since `mark` to finish —
   * and first for `need` of them to begin (else a TimeoutError if none did).
   * Returns how many begun; one still running at `finishBy` (the deadline unless sooner) is left
   * to the report.
   */
  async settle(mark: number, deadline: Deadline, need: number, finishBy = deadline): Promise<number> {
    for (;;) {
      const changed = this.#changed;
      const ours = await this.#oursSince(mark);
      const begun = ours.length >= need;
      if (begun && (!ours.some((d) => d.state === 'inProgress') || finishBy.expired())) return ours.length;
      if (deadline.expired()) {
        if (!ours.length) throw deadline.timeoutError('a download to begin');
        return ours.length;
      }
      const by = begun ? finishBy : deadline;
      await by.race(changed, begun ? 'downloads to finish' : 'a download to begin').catch(() => undefined);
    }
  }

  /** What is known now of our tab's downloads, for an answer the command's deadline cuts short. */
  known(): DownloadReport[] {
    return [...this.#items.values()].filter((d) => d.mine).map(reportOf);
  }

  /**
   * This command's downloads and what landed in the folder meanwhile; stops following events.
   * A download still running (it may have begun just after its step) is waited for until `until`,
   * the last step's deadline.
   */
  async finish(until?: Deadline): Promise<DownloadReport[]> {
    if (until) await this.settle(0, until, 0);
    for (const off of this.#off.splice(0)) off();
    const mine = await this.#oursSince(0);
    return [...mine.map(reportOf), ...collectLanded(new Set(this.#items.keys()))];
  }
}

export type { DownloadReport } from './downloads-folder.js';
