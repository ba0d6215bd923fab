// Issue 21 items 1, 2, 8: the pure parts of the network and route steps — their validation, the
// status filter, URL patterns, the resource type vocabulary, and how secrets and bodies are shown.
import { describe, expect, it } from 'vitest';
import { Deadline, ValidationError, knownSecrets, redactSecrets } from '../../src/common/index.js';
import { RequestLog } from '../../src/page/network-record.js';
import { validateCommand } from '../../src/runner/index.js';
import { parseStatus } from '../../src/steps/network.js';
import {
  chromeUrlPattern,
  matchesStatus,
  requestMatcher,
  typeOfInitiator,
  urlMatcher,
} from '../../src/page/network-match.js';
import { redactBody, redactHeaders } from '../../src/page/network-redact.js';
import { showBody } from '../../src/page/network-body.js';

async function validationError(step: unknown): Promise<string> {
  const err = await validateCommand({ tab: 't1', steps: [step] }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, JSON.stringify(step)).toBeInstanceOf(ValidationError);
  return (err as Error).message;
}

describe('network and route validation', () => {
  it('accepts the documented forms', async () => {
    const cmd = await validateCommand({
      tab: 't1',
      steps: [
        { network: true },
        { network: { url: '/api', status: '>=400', type: ['fetch', 'xhr'], limit: 5 } },
        { network: { url: '/api/settings', body: true } },
        { network: { id: '123.4' } },
        { network: { har: 'out.har', url: '/api' } },
        { route: { url: '*/api/*', status: 500, body: { error: 'x' }, headers: { 'X-A': '1' } } },
        { route: { url: 'ads', abort: true, persist: true } },
        { route: false },
      ],
    });
    expect(cmd.steps.map((s) => s.params)).toMatchObject([
      { kind: 'list', filter: {}, limit: 30 },
      { kind: 'list', filter: { url: '/api', status: { op: '>=', value: 400 }, types: ['fetch', 'xhr'] }, limit: 5 },
      { kind: 'detail', url: '/api/settings', body: true },
      { kind: 'detail', id: '123.4', body: false },
      { kind: 'har', path: 'out.har', filter: { url: '/api' } },
      {
        rule: {
          url: '*/api/*',
          status: 500,
          body: '{"error":"x"}',
          contentType: 'application/json',
          headers: { 'X-A': '1' },
        },
      },
      { rule: { url: 'ads', abort: true, persist: true } },
      { clear: true },
    ]);
  });

  it('refuses bad input with a message naming the key', async () => {
    const cases: [unknown, RegExp][] = [
      [{ network: 'all' }, /network takes true or/],
      [{ network: { status: '4x' } }, /"status" must be a status/],
      [{ network: { status: 700 } }, /"status" must be a status/],
      [{ network: { type: 'api' } }, /"type" must be one of document, .*fetch/],
      [{ network: { body: true } }, /"body": true needs the request/],
      [{ network: { id: '1', url: '/a' } }, /"id" or "url" .* not both/],
      [{ network: { har: 'a.har', body: true } }, /takes url, status and type/],
      [{ network: { url: '/a', body: true, status: 404 } }, /one request, not "status"/],
      [{ network: { limit: 0 } }, /"limit" must be at least 1/],
      [{ network: { verbose: true } }, /unknown key "verbose"/],
      [{ route: true }, /route takes \{url, status, body, …\}/],
      [{ route: { status: 500 } }, /"url" is required/],
      [{ route: { url: '/a' } }, /route needs what to answer/],
      [{ route: { url: '/a', abort: true, status: 500 } }, /"abort": true fails the request/],
      [{ route: { url: '/a', status: 99 } }, /"status" must be at least 100/],
      [{ route: { url: '/a', body: 'x', headers: { 'bad name': 'v' } } }, /invalid header name/],
      [{ route: { url: '/a', body: 'x'.repeat(70_000), persist: true } }, /longer than 64000 .*persisted/],
      [{ route: { url: '/a', body: 'x', match: 'y' } }, /unknown key "match"/],
    ];
    for (const [step, message] of cases) expect(await validationError(step)).toMatch(message);
  });
});

describe('the status filter', () => {
  it('reads statuses, classes, comparisons and "failed"', () => {
    expect(parseStatus(404)).toEqual({ op: '=', value: 404 });
    expect(parseStatus('404')).toEqual({ op: '=', value: 404 });
    expect(parseStatus('4XX')).toEqual({ op: 'class', value: 4 });
    expect(parseStatus('>= 400')).toEqual({ op: '>=', value: 400 });
    expect(parseStatus('!=200')).toEqual({ op: '!=', value: 200 });
    expect(parseStatus('failed')).toEqual({ op: 'failed' });
  });

  it('matches as documented, a request that failed without a response only as "failed"', () => {
    const statuses = [undefined, 0, 200, 204, 301, 404, 422, 500, 503];
    const pass = (f: unknown) => statuses.filter((s) => matchesStatus(parseStatus(f), s, s === undefined));
    expect(pass('4xx')).toEqual([404, 422]);
    expect(pass('>=400')).toEqual([404, 422, 500, 503]);
    expect(pass('<300')).toEqual([200, 204]);
    expect(pass('!=200')).toEqual([204, 301, 404, 422, 500, 503]);
    expect(pass('failed')).toEqual([undefined, 404, 422, 500, 503]);
    expect(pass(500)).toEqual([500]);
  });

  it('combines url, status and type', () => {
    const keep = requestMatcher({ url: '/api/', status: parseStatus('5xx'), types: ['fetch'] });
    expect(keep({ url: 'http://a/api/x', status: 502, type: 'fetch' })).toBe(true);
    expect(keep({ url: 'http://a/api/x', status: 502, type: 'xhr' })).toBe(false);
    expect(keep({ url: 'http://a/app/x', status: 502, type: 'fetch' })).toBe(false);
    expect(keep({ url: 'http://a/api/x', type: 'fetch' })).toBe(false);
    const failed = requestMatcher({ status: parseStatus('failed') });
    expect(failed({ url: 'http://a/', error: 'net::ERR_FAILED' })).toBe(true);
    expect(failed({ url: 'http://a/' })).toBe(false); // still loading: not failed
    expect(failed({ url: 'http://a/', status: 0 })).toBe(false); // an opaque response, not a failure
  });
});

describe('URL patterns', () => {
  it('a pattern without * is a substring; with *, a glob over the whole URL', () => {
    const url = 'http://127.0.0.1:8080/api/items?page=2';
    expect(urlMatcher('/api/items?page=2')(url)).toBe(true);
    expect(urlMatcher('/API/')(url)).toBe(false);
    expect(urlMatcher('*/api/*')(url)).toBe(true);
    expect(urlMatcher('**/api/items')(url)).toBe(false);
    expect(urlMatcher('http://127.0.0.1:*/api/**')(url)).toBe(true);
    expect(urlMatcher('*.png')(url)).toBe(false);
  });

  it("says the same to Chrome's Fetch patterns: * any characters, ? and \\ literal", () => {
    expect(chromeUrlPattern('/api/items?page=2')).toBe('*/api/items\\?page=2*');
    expect(chromeUrlPattern('**/api/*')).toBe('*/api/*');
    expect(chromeUrlPattern('a\\b*')).toBe('a\\\\b*');
  });

  it("maps resource timing's initiator types to Chrome's resource types", () => {
    expect(typeOfInitiator('fetch', 'http://a/x')).toBe('fetch');
    expect(typeOfInitiator('xmlhttprequest', 'http://a/x')).toBe('xhr');
    expect(typeOfInitiator('navigation', 'http://a/')).toBe('document');
    expect(typeOfInitiator('img', 'http://a/x')).toBe('image');
    expect(typeOfInitiator('link', 'http://a/site.css?v=2')).toBe('stylesheet');
    expect(typeOfInitiator('css', 'http://a/f.woff2')).toBe('font');
    expect(typeOfInitiator('other', 'http://a/data')).toBe('other');
  });
});

describe('secrets in headers and bodies', () => {
  it('hides credential headers and marks their values secret everywhere', () => {
    const shown = redactHeaders({
      Authorization: 'Bearer abcdef0123456789',
      Cookie: 'sid=cookie-value-123; theme=dark',
      'set-cookie': 'refresh=refresh-token-xyz; HttpOnly',
      'X-Api-Key': 'api-key-value-1',
      'X-CSRF-Token': 'csrf-value-12345',
      'content-type': 'application/json',
    });
    expect(shown).toEqual({
      Authorization: '••••',
      Cookie: '••••',
      'set-cookie': '••••',
      'X-Api-Key': '••••',
      'X-CSRF-Token': '••••',
      'content-type': 'application/json',
    });
    for (const v of ['abcdef0123456789', 'cookie-value-123', 'refresh-token-xyz', 'api-key-value-1'])
      expect(knownSecrets()).toContain(v);
    expect(knownSecrets()).not.toContain('dark'); // a short cookie value is hidden with its header only
    expect(redactSecrets(`echo: token abcdef0123456789 and cookie-value-123`)).toBe('echo: token •••• and ••••');
  });

  it('hides token-like values in JSON and form bodies', () => {
    expect(redactBody('{"user":"ann","token":"t-0123456789","nested":{"password":"hunter22"}}')).toBe(
      '{"user":"ann","token":"••••","nested":{"password":"••••"}}',
    );
    expect(redactBody('user=ann&api_key=k-987654321&x=1', 'application/x-www-form-urlencoded')).toBe(
      'user=ann&api_key=••••&x=1',
    );
    expect(knownSecrets()).toContain('k-987654321');
    expect(redactBody('{"ok":true}')).toBe('{"ok":true}');
    expect(redactBody('plain text, token: none')).toBe('plain text, token: none');
  });

  it('shows a body capped, HTML as its text in a preview, binary described', () => {
    const html = '<html><head><style>p{}</style></head><body><h1>500</h1>\n\n<p>Internal  error</p></body></html>';
    expect(showBody({ text: html, bytes: html.length }, 'text/html', 300, true)).toEqual({
      body: '500 Internal error',
    });
    expect(showBody({ text: 'x'.repeat(500), bytes: 500 }, 'text/plain', 300)).toEqual({
      body: `${'x'.repeat(299)}…`,
      bodyBytes: 500,
    });
    expect(showBody({ binary: true, bytes: 68 }, 'image/png', 300)).toEqual({ bodyNote: 'binary image/png, 68 bytes' });
    expect(showBody({ bytes: 0, error: 'none (no body)' }, 'text/plain', 300)).toEqual({
      bodyNote: 'body none (no body)',
    });
  });
});

/** A request log on a fake session whose events the test emits, and the raw headers of request `id`. */
function fakeLog(id: string) {
  const handlers = new Map<string, (e: never) => void>();
  const log = new RequestLog({ on: (name: string, fn: (e: never) => void) => handlers.set(name, fn) } as any);
  const emit = (name: string, e: object) => handlers.get(name)!(e);
  const extraInfo = (headers: Record<string, string>) =>
    emit('Network.responseReceivedExtraInfo', { requestId: id, headers });
  return { log, emit, extraInfo };
}

/** The events of one fetch, up to its end: sent, answered (raw headers announced), finished. */
function finish(emit: (name: string, e: object) => void, id: string, url: string, contentType: string): void {
  emit('Network.requestWillBeSent', {
    requestId: id,
    request: { url, method: 'GET', headers: {} },
    type: 'Fetch',
    wallTime: 1,
    timestamp: 1,
  });
  emit('Network.responseReceived', {
    requestId: id,
    type: 'Fetch',
    hasExtraInfo: true,
    response: { status: 200, statusText: 'OK', headers: { 'Content-Type': contentType }, mimeType: contentType },
  });
  emit('Network.loadingFinished', { requestId: id, timestamp: 2, encodedDataLength: 10 });
}

describe('raw response headers that come after the request finished (under load)', () => {
  it('whenHeaders waits for the ExtraInfo Chrome announced, and they land in the record', async () => {
    const { log, emit, extraInfo } = fakeLog('r1');
    finish(emit, 'r1', 'http://127.0.0.1/x', 'text/plain');
    const r = log.all[0]!;
    expect(r.done).toBe(true);
    expect(await log.whenHeaders([r], Deadline.after(50))).toBe(false); // announced, not come
    const waiting = log.whenHeaders([r], Deadline.after(2_000));
    setTimeout(() => extraInfo({ 'Set-Cookie': 'a=b' }), 20);
    expect(await waiting).toBe(true);
    expect(r.responseHeaders).toEqual({ 'content-type': 'text/plain', 'set-cookie': 'a=b' });
  });

  it('keeps raw response headers that came before their request was seen', async () => {
    const { log, emit, extraInfo } = fakeLog('r2');
    extraInfo({ 'Set-Cookie': 'refresh=x' });
    finish(emit, 'r2', 'http://127.0.0.1/profile', 'application/json');
    const r = log.all[0]!;
    expect(await log.whenHeaders([r], Deadline.after(50))).toBe(true); // nothing left to wait for
    expect(r.responseHeaders).toEqual({ 'content-type': 'application/json', 'set-cookie': 'refresh=x' });
  });
});
