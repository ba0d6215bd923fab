// Farms' pure parts (issue 24): the Grid's se:cdp reached through the hub, a browser service's HTTP
// answer on an open WebSocket, endpoint credentials found in any URL, the farm keys' validation
// (credentials marked before any refusal), and registry entries that carry a Grid session.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gridCdpUrl, throughGrid, withQuietWindows } from '../../src/cdp/grid.js';
import { parseRegistry } from '../../src/cdp/tab-registry.js';
import { httpAnswerOnSocket, WebSocketClient } from '../../src/cdp/websocket.js';
import { endpointSecrets, knownSecrets, urlSecretsIn } from '../../src/common/secrets.js';
import { sha1 } from '../../src/common/sha1.js';
import { validateCommand } from '../../src/runner/index.js';

describe('the Grid reached through the address the agent gave', () => {
  it('rewrites a se:cdp the Grid reports at its own address to the hub, keeping the session path', () => {
    expect(throughGrid('http://127.0.0.1:4545', 'ws://192.0.2.2:4444/session/abc/se/cdp')).toBe(
      'ws://127.0.0.1:4545/session/abc/se/cdp',
    );
  });
  it('takes the scheme and user:password@ of the Grid URL (https → wss)', () => {
    expect(throughGrid('https://u:p%40ss@grid.example.com/wd/hub', 'ws://selenium-hub:4444/session/abc/se/cdp')).toBe(
      'wss://u:p%40ss@grid.example.com/session/abc/se/cdp',
    );
  });
  it('builds a joined session’s endpoint from its id', () => {
    expect(gridCdpUrl('http://hub:4444/', 'abc123')).toBe('ws://hub:4444/session/abc123/se/cdp');
  });
});

/** What browserless writes onto an upgraded socket when a connection's time runs out (its writeResponse). */
const BROWSERLESS_408 =
  'HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Encoding: UTF-8\r\nAccept-Ranges: bytes\r\nConnection: keep-alive\r\n\r\nRequest has timed out';

describe("the Grid's Chrome without the per-window WebUI pages", () => {
  const QUIET = '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup';
  const argsOf = (caps: Record<string, any>) => caps.alwaysMatch['goog:chromeOptions']?.args;

  it("adds the flag to the agent's args, keeping their other options", () => {
    const caps = { alwaysMatch: { browserName: 'chrome', 'goog:chromeOptions': { args: ['--a'], binary: '/b' } } };
    expect(withQuietWindows(caps)).toEqual({
      alwaysMatch: { browserName: 'chrome', 'goog:chromeOptions': { args: ['--a', QUIET], binary: '/b' } },
    });
    expect(argsOf(withQuietWindows({ alwaysMatch: { browserName: 'chrome' } }))).toEqual([QUIET]);
  });

  it("leaves the agent's own --disable-features, options in firstMatch, odd args and other browsers alone", () => {
    const own = { alwaysMatch: { browserName: 'chrome', 'goog:chromeOptions': { args: ['--disable-features=X'] } } };
    expect(withQuietWindows(own)).toBe(own);
    const first = { alwaysMatch: { browserName: 'chrome' }, firstMatch: [{ 'goog:chromeOptions': { args: [] } }] };
    expect(withQuietWindows(first)).toBe(first);
    const odd = { alwaysMatch: { browserName: 'chrome', 'goog:chromeOptions': { args: '--bad' } } };
    expect(withQuietWindows(odd)).toBe(odd);
    const firefox = { alwaysMatch: { browserName: 'firefox' } };
    expect(withQuietWindows(firefox)).toBe(firefox);
  });
});

describe("a browser service's HTTP answer on an open WebSocket", () => {
  it('is told by its status and message, with what a 408 means', () => {
    const said = httpAnswerOnSocket(Buffer.from(BROWSERLESS_408, 'latin1'))!;
    expect(said).toContain('HTTP 408 Request Timeout ("Request has timed out")');
    expect(said).toContain('time limit for one connection');
  });
  it('is not found in WebSocket frames', () => {
    expect(httpAnswerOnSocket(Buffer.from([0x81, 0x02, 0x7b, 0x7d]))).toBeUndefined();
  });

  let server: Server | undefined;
  afterEach(() => server?.close());

  /** A server that upgrades (RFC 6455 accept) and then does `then` with the raw socket. */
  async function upgradingServer(then: (socket: Socket) => void): Promise<string> {
    server = createServer();
    server.on('upgrade', (req, socket: Socket) => {
      const accept = sha1(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).toString('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
      );
      setTimeout(() => then(socket), 20);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return `ws://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
  }

  it('closes the connection with that reason, not "reserved bits set"', async () => {
    const url = await upgradingServer((socket) => socket.end(BROWSERLESS_408));
    const reason = await new Promise<string>((resolve, reject) => {
      WebSocketClient.open(url, { timeoutMs: 2000, maxPayload: 1e6, onMessage: () => {}, onClose: resolve }).catch(
        reject,
      );
    });
    expect(reason).toContain('HTTP 408 Request Timeout');
    expect(reason).not.toContain('reserved bits');
  });

  it("carries a refused upgrade's message", async () => {
    server = createServer();
    server.on('upgrade', (_req, socket: Socket) =>
      socket.end(
        'HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n\r\nCouldn\'t locate browser "x" for request "/devtools/browser/x"',
      ),
    );
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/devtools/browser/x`;
    await expect(
      WebSocketClient.open(url, { timeoutMs: 2000, maxPayload: 1e6, onMessage: () => {}, onClose: () => {} }),
    ).rejects.toThrow(/refused the WebSocket upgrade: 404 Not Found \(Couldn't locate browser "x"/);
  });
});

describe('endpoint credentials', () => {
  it('are the password of user:password@ and token-like query values, as written and decoded', () => {
    expect(endpointSecrets('wss://me:pa%24s@farm.example.com/?token=t0k&x=1&apiKey=k%2By')).toEqual(
      expect.arrayContaining(['t0k', 'k%2By', 'k+y', 'pa%24s', 'pa$s']),
    );
    expect(endpointSecrets('ws://farm.example.com/?x=1&page=2')).toEqual([]);
  });
  it('are found in every URL of a text, such as a command that did not parse', () => {
    expect(
      urlSecretsIn('{"steps":[{"openTab":{"wsEndpoint":"ws://h:1/?token=abc123", "grid": "http://u:pw@h:2"'),
    ).toEqual(expect.arrayContaining(['abc123', 'pw']));
  });
});

describe('the farm keys', () => {
  const refused = async (step: object): Promise<string> => {
    try {
      await validateCommand({ steps: [step] });
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error('validation passed');
  };

  it('take one way to reach a browser', async () => {
    expect(await refused({ openTab: { grid: 'http://h:4444', wsEndpoint: 'ws://h:1/devtools/browser/x' } })).toMatch(
      /one way to reach the browser/,
    );
    expect(await refused({ openTab: { url: 'http://a', capabilities: {} } })).toMatch(/go with "grid"/);
    expect(await refused({ openTab: { grid: 'ftp://h' } })).toMatch(/http:\/\/ or https:\/\/ URL/);
    expect(await refused({ openTab: { grid: 'http://h', capabilities: 'chrome' } })).toMatch(
      /object of WebDriver capabilities/,
    );
    expect(await refused({ openTab: { grid: 'http://h', capabilities: {}, session: 'abcdef0123456789' } })).toMatch(
      /not both/,
    );
    expect(await refused({ listTabs: { grid: 'http://h', capabilities: {} } })).toMatch(/unknown key "capabilities"/);
  });

  it('mark their credentials before any check refuses the step', async () => {
    await refused({ openTab: { ur: 'x', grid: 'http://agent:gridPW1@h:4444/?token=gridTok1' } });
    await refused({ nosuchstep: { wsEndpoint: 'ws://h:1/?token=wsTok2' } });
    await refused({
      openTab: { url: 'http://a', bogus: 1, capabilities: { 'sauce:options': { accessKey: 'capKey3' } } },
    });
    expect(knownSecrets()).toEqual(expect.arrayContaining(['gridPW1', 'gridTok1', 'wsTok2', 'capKey3']));
  });
});

describe('registry entries of Grid tabs', () => {
  const entry = (grid: unknown) =>
    JSON.stringify({
      nextId: 2,
      tabs: {
        t1: { targetId: 'A'.repeat(32), host: 'h', port: 4444, wsEndpoint: 'ws://h:4444/session/s/se/cdp', grid },
      },
    });
  it('keep the hub, the session and who created it', () => {
    const data = parseRegistry(entry({ url: 'http://h:4444', sessionId: 's', created: true }));
    expect(data?.tabs.t1?.grid).toEqual({ url: 'http://h:4444', sessionId: 's', created: true });
  });
  it('are damage when the session is not shaped as written', () => {
    expect(parseRegistry(entry({ url: 'http://h:4444', sessionId: 5, created: true }))).toBeUndefined();
  });
});
