// Chrome's words for an evaluation in a context that is gone, as it says them: by context id, and
// by the system-unique id a command remembers from the last one (runner/capture.ts startBefore).
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/cdp/connection.js';
import { isUnknownContext } from '../../src/cdp/protocol-errors.js';

describe('isUnknownContext', () => {
  it("knows both of Chrome's wordings, and nothing else", () => {
    expect(isUnknownContext(new ProtocolError('Runtime.evaluate: Cannot find context with specified id'))).toBe(true);
    // What Chrome answered (code -32602) for a uniqueContextId whose context went.
    expect(isUnknownContext(new ProtocolError('Runtime.evaluate: uniqueContextId not found'))).toBe(true);
    expect(isUnknownContext(new ProtocolError('Runtime.evaluate: Execution context was destroyed.'))).toBe(false);
  });
});
