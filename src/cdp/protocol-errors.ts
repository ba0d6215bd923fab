// Chrome's error strings, matched in one place. Everything else asks these predicates.

function text(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const CONTEXT_DESTROYED = [
  'Cannot find context with specified id',
  'Execution context was destroyed',
  'Inspected target navigated or closed',
  'Cannot find default execution context',
];
const STALE_NODE = [
  'Could not find object with given id',
  'Node with given id does not belong to the document',
  'No node with given id found',
  'Could not find node with given id',
  'Node is detached from document',
];
const TARGET_CLOSED = [
  'No target with given id found',
  'No session with given id',
  'Target closed',
  'Session with given id not found',
  'target was closed',
];

const matchesAny = (err: unknown, needles: string[]): boolean => {
  const msg = text(err);
  return needles.some((n) => msg.includes(n));
};

export const isContextDestroyed = (err: unknown): boolean => matchesAny(err, CONTEXT_DESTROYED);
/**
 * The context id (or uniqueContextId) names no context (its document went): the evaluation never
 * started. Chrome words the two differently.
 */
export const isUnknownContext = (err: unknown): boolean =>
  matchesAny(err, ['Cannot find context with specified id', 'uniqueContextId not found']);
export const isStaleNode = (err: unknown): boolean => matchesAny(err, STALE_NODE);
export const isTargetClosed = (err: unknown): boolean => matchesAny(err, TARGET_CLOSED);
/** Runtime.terminateExecution ended the script. */
export const isTerminated = (err: unknown): boolean => text(err).includes('Execution was terminated');
/** Page.navigate's errorText when another navigation or a download replaced this one (net::ERR_ABORTED). */
export const isNavigationAborted = (errorText: string): boolean => errorText.includes('ERR_ABORTED');
/** Network.setCookies refused a cookie ("Invalid cookie fields", "Sanitizing cookie failed"). */
export const isCookieRefused = (err: unknown): boolean => /cookie/i.test(text(err));
/** Page.printToPDF: the page ranges exceed the document or do not parse. */
export const isPageRangeInvalid = (err: unknown): boolean => /page range/i.test(text(err));
/** The command exists but this browser cannot carry it out (printToPDF in a headed Chrome). */
export const isNotImplemented = (err: unknown): boolean => /not implemented|not supported/i.test(text(err));
/** This browser does not implement the command (an older Chrome, or another CDP server). */
export const isMethodUnavailable = (err: unknown): boolean =>
  /wasn't found|not found|not supported/i.test(text(err)) && !isTargetClosed(err);

/** Network.getResponseBody: the body was dropped from the session's buffer (too large, or pushed out). */
export const isBodyEvicted = (err: unknown): boolean => matchesAny(err, ['evicted from inspector cache']);
/** Network.getResponseBody: Chrome has no body for the request (none sent, or not finished loading). */
export const isBodyMissing = (err: unknown): boolean =>
  matchesAny(err, ['No data found for resource with given identifier', 'No resource with given identifier found']);
