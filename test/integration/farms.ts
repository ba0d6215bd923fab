// The farm tests' side of the farms (test/fixtures/farms.mjs starts them): the test's own CDP
// socket to a farm browser, the independent look at its pages.
export {
  announceSkip,
  browserlessSessions,
  farmsMissing,
  gridSessionIds,
  startBrowserless,
  startHubAndNode,
  startStandaloneGrid,
} from '../fixtures/farms.mjs';

export interface Farm {
  url: string;
  stop(): Promise<void>;
}

/** The test's own CDP socket to a browser endpoint (se:cdp through the hub, a browserless browser): never through the CLI. */
export interface RawCdp {
  send: (method: string, params?: object, sessionId?: string) => Promise<any>;
  /** A page expression's JSON value in the page target whose URL is `url`. */
  valueIn: (url: string, expression: string) => Promise<any>;
  close: () => void;
}

export async function rawCdp(endpoint: string): Promise<RawCdp> {
  const { default: WebSocket } = await import('ws');
  const ws = new WebSocket(endpoint);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let id = 0;
  const pending = new Map<number, (msg: any) => void>();
  ws.on('message', (data: Buffer) => {
    const msg = JSON.parse(data.toString());
    pending.get(msg.id)?.(msg);
    pending.delete(msg.id);
  });
  const send: RawCdp['send'] = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      const n = ++id;
      pending.set(n, (msg) => (msg.error ? reject(new Error(`${method}: ${msg.error.message}`)) : resolve(msg.result)));
      ws.send(JSON.stringify({ id: n, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  return {
    send,
    async valueIn(url, expression) {
      const { targetInfos } = await send('Target.getTargets');
      const target = targetInfos.find((t: { type: string; url: string }) => t.type === 'page' && t.url === url);
      if (!target)
        throw new Error(`no page at ${url} (pages: ${targetInfos.map((t: { url: string }) => t.url).join(', ')})`);
      const { sessionId } = await send('Target.attachToTarget', { targetId: target.targetId, flatten: true });
      try {
        const r = await send(
          'Runtime.evaluate',
          { expression: `JSON.stringify(${expression})`, returnByValue: true },
          sessionId,
        );
        return JSON.parse(r.result.value);
      } finally {
        await send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
      }
    },
    close: () => ws.close(),
  };
}

/** Page targets' URLs of a browser, as the browser itself lists them. */
export async function pageUrls(cdp: RawCdp): Promise<string[]> {
  const { targetInfos } = await cdp.send('Target.getTargets');
  return targetInfos.filter((t: { type: string }) => t.type === 'page').map((t: { url: string }) => t.url);
}
