import { describe, expect, it } from 'vitest';
import { redactForLog } from '../../src/capture/debug-log.js';
import { markSecret } from '../../src/common/index.js';

const redact = (request: unknown, response: unknown = {}) => JSON.stringify(redactForLog(request, response));

describe('debug log redaction', () => {
  it('redacts a fill whose target looks like a password or auth field, and its echoes', () => {
    const out = redact(
      {
        tab: 't1',
        steps: [
          { fill: { selector: '#password', value: 'hunter22' } },
          { fill: { label: 'API token', value: 'tok-123' } },
          { fill: { selector: '#email', value: 'ann@example.com' } },
        ],
      },
      {
        steps: [
          {
            action: 'fill',
            status: 'error',
            params: { selector: '#password', value: 'hunter22' },
            error: 'x "hunter22"',
          },
        ],
      },
    );
    expect(out).not.toMatch(/hunter22|tok-123/);
    expect(out).toContain('ann@example.com');
  });

  it('redacts field maps by key, keys named like secrets, and text typed into a focused password field', () => {
    const out = redact(
      {
        steps: [
          { fill: { '#user': 'ann', '#pass': 's3cr3t-a' } },
          { fill: { fields: { '[name=otp]': '123456' } } },
          { type: 's3cr3t-b' },
          { pageFunction: { fn: 'x', password: 's3cr3t-c' } },
        ],
      },
      {
        context: { activeElement: { tag: 'input', type: 'password', selector: '#pw' } },
        steps: [{ output: { typed: 's3cr3t-b' } }],
      },
    );
    expect(out).not.toMatch(/s3cr3t|123456/);
    expect(out).toContain('"#user":"ann"');
  });

  it('leaves text typed into an ordinary focused field alone', () => {
    expect(
      redact({ steps: [{ type: 'hello there' }] }, { context: { activeElement: { type: 'text', selector: '#q' } } }),
    ).toContain('hello there');
  });

  it('redacts values the steps marked as secrets (a password field reached by ref)', () => {
    markSecret('by-ref-secret');
    const out = redact(
      { steps: [{ fill: { ref: 's1e4', value: 'by-ref-secret' } }] },
      { steps: [{ output: { value: 'by-ref-secret' } }] },
    );
    expect(out).not.toContain('by-ref-secret');
  });
});
