// The document's requests as its own resource timing tells them, kept while no command is attached:
// a PerformanceObserver in our isolated world (the page cannot see it) holds the newest entries,
// even after the page's timing buffer is full (250 entries by default). Runs in the page.

/** One request the document made, as resource timing reports it: no method, headers or bodies. */
export interface TimedRequest {
  url: string;
  /** HTTP status; 0 for a network error, and for a cross-origin response the page may not read. */
  status: number;
  /** The initiator type ('fetch', 'xmlhttprequest', 'img', 'navigation', …). */
  initiator: string;
  /** Bytes over the wire, headers included (0 from the cache, or cross-origin without Timing-Allow-Origin). */
  bytes: number;
  /** Wall-clock start, epoch milliseconds. */
  startMs: number;
  durationMs: number;
}

/** The newest entries kept; a page polling every second fills this in a quarter of an hour. */
const KEPT = 1000;
const MAX_URL = 2000;

let kept: PerformanceResourceTiming[] | undefined;

/** Starts keeping the document's requests until it goes (once per document; later calls do nothing). */
export function watchRequests(): void {
  if (kept) return;
  const list: PerformanceResourceTiming[] = [];
  kept = list;
  new PerformanceObserver((entries) => {
    for (const e of entries.getEntries()) list.push(e as PerformanceResourceTiming);
    if (list.length > KEPT) list.splice(0, list.length - KEPT);
  }).observe({ type: 'resource', buffered: true });
}

function toRequest(e: PerformanceResourceTiming): TimedRequest {
  return {
    url: e.name.length > MAX_URL ? e.name.slice(0, MAX_URL) : e.name,
    status: e.responseStatus ?? 0,
    initiator: e.initiatorType,
    bytes: e.transferSize,
    startMs: Math.round(performance.timeOrigin + e.startTime),
    durationMs: Math.round(e.duration),
  };
}

/**
 * The document itself and its requests, oldest first: what the observer kept, else (a document no
 * command watched yet) the page's own buffer — which then starts being watched. `bufferFull`: the
 * page's buffer was full and no observer was there, so later requests are missing.
 */
export function readRequests(): { requests: TimedRequest[]; bufferFull: boolean; origin: number } {
  const nav = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  const buffered = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  const watched = kept !== undefined;
  const entries = kept ? [...kept] : buffered;
  watchRequests();
  return {
    requests: [...nav, ...entries].map(toRequest),
    bufferFull: !watched && buffered.length >= 250,
    origin: Math.round(performance.timeOrigin),
  };
}
