// Dependencies point downward only, and through each layer's index.ts (STYLE.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(__dirname, '../../src');
// shared/ (facts both sides of the page boundary need) imports nothing, and every layer may import
// it: the page runtime (injected/) and diff/ included.
const BELOW: Record<string, string[]> = {
  shared: [],
  common: [],
  cdp: ['common'],
  injected: [],
  page: ['common', 'cdp', 'injected'],
  capture: ['common', 'cdp', 'injected'],
  dom: ['common', 'cdp', 'page', 'injected'],
  aria: ['common', 'cdp', 'page', 'injected', 'diff'],
  diff: [],
  steps: ['common', 'cdp', 'page', 'capture', 'dom', 'aria', 'diff', 'injected', 'profiles'],
  runner: ['common', 'cdp', 'page', 'capture', 'steps', 'diff', 'aria', 'profiles', 'injected'],
  profiles: ['common'],
  install: ['common'],
  mcp: ['runner', 'steps', 'capture', 'common'],
  '.': ['runner', 'capture', 'steps', 'common', 'install', 'mcp'],
};
const ALLOWED: Record<string, string[]> = Object.fromEntries(
  Object.entries(BELOW).map(([layer, below]) => [layer, layer === 'shared' ? below : [...below, 'shared']]),
);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

it('imports only downward, through index.ts', () => {
  const bad: string[] = [];
  for (const file of files(SRC)) {
    const layer = relative(SRC, file).includes('/') ? relative(SRC, file).split('/')[0]! : '.';
    const specs = Array.from(
      readFileSync(file, 'utf8').matchAll(/from '(\.\.?\/[^']+)'|import\('(\.\.?\/[^']+)'\)/g),
      (m) => m[1] ?? m[2]!,
    );
    for (const spec of specs) {
      const target = relative(SRC, join(file, '..', spec));
      const targetLayer = target.includes('/') ? target.split('/')[0]! : '.';
      if (targetLayer === layer) continue;
      if (!ALLOWED[layer]?.includes(targetLayer))
        bad.push(`${relative(SRC, file)} → ${spec} (layer ${targetLayer} not allowed)`);
      else if (!spec.endsWith('/index.js')) bad.push(`${relative(SRC, file)} → ${spec} (not through index.js)`);
    }
  }
  expect(bad).toEqual([]);
});

// Issue 26 item 2: shared/ is pure, so both the Node side and the page runtime can load it — no
// import at all (not even a package or a Node built-in), and no Node or DOM global.
it('keeps shared/ pure: it imports nothing and uses no Node or DOM global', () => {
  const found = files(join(SRC, 'shared')).flatMap((file) => {
    const text = readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*|\/\*).*$/gm, '');
    const imports = Array.from(text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g), (m) => m[1]!).filter(
      (spec) => !spec.startsWith('./'),
    );
    const globals = text.match(/\b(process|Buffer|require|window|document|globalThis|navigator|Element|Node)\b/g) ?? [];
    return [...imports, ...globals].map((what) => `${relative(SRC, file)}: ${what}`);
  });
  expect(found).toEqual([]);
  expect(files(join(SRC, 'shared')).length).toBeGreaterThan(1);
});

/** Modules a file loads at run time: value imports and re-exports (type-only imports are erased). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = Array.from(text.matchAll(/^(?:import|export) (?!type )[^;]*?from '(\.\.?\/[^']+)'/gms), (m) => m[1]!);
  return specs.map((spec) => join(file, '..', spec).replace(/\.js$/, '.ts'));
}

// Issue 17: no import cycle between modules, the page runtime's included (a cycle makes load order matter).
it('has no import cycle', () => {
  const graph = new Map(files(SRC).map((f) => [f, valueImports(f)]));
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (f: string, path: string[]): void => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      cycles.push([...path.slice(path.indexOf(f)), f].map((p) => relative(SRC, p)).join(' → '));
      return;
    }
    state.set(f, 'open');
    for (const next of graph.get(f) ?? []) visit(next, [...path, f]);
    state.set(f, 'done');
  };
  for (const f of graph.keys()) visit(f, []);
  expect(cycles).toEqual([]);
});

// Safety by default (issue 8): nothing is sent anywhere but the configured Chrome. Only the CDP
// layer's discovery (HTTP /json/*) and its WebSocket client may open network sockets.
it('opens network connections only in cdp/discovery.ts and cdp/websocket.ts', () => {
  const NETWORK =
    /from '(node:)?(http|https|http2|net|tls|dgram|dns|undici)'|from 'ws'|require(Builtin)?\('(node:)?(http|https|net|tls|dgram)'\)|\bfetch\(|\bWebSocket\(|\bXMLHttpRequest\b/;
  // Page code (injected/) runs inside the page, under the page's own origin: it makes no requests either.
  const users = files(SRC)
    .filter((f) => NETWORK.test(readFileSync(f, 'utf8')))
    .map((f) => relative(SRC, f))
    .sort();
  expect(users).toEqual(['cdp/discovery.ts', 'cdp/websocket.ts']);
});

// Issue 26 item 1: where a step acts is a value (page/scope.ts), not a mode of the tab. The tab's
// chosen frame is private to page/tab.ts; everything else gets a Scope from the runner.
it('reads and writes the chosen frame only inside page/', () => {
  const tab = readFileSync(join(SRC, 'page/tab.ts'), 'utf8');
  // No public field, accessor or Proxy that would hand the chosen frame to other layers.
  expect(tab).not.toMatch(
    /^\s+(public\s+)?(readonly\s+)?frame[?!]?\s*:[^,]*;\s*$|\bget frame\(|\bset frame\(|new Proxy\(/m,
  );
  const users = files(SRC)
    .filter((f) => !/\/(page|injected)\//.test(f))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /\bpage\??\.frame\b(?!s)|\.inFrame\(/.test(line) ? [`${relative(SRC, f)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
  expect(users).toEqual([]);
  // Only the runner builds scopes from the tab's chosen frame; steps and dom get theirs passed.
  const builders = files(SRC)
    .filter((f) => !/\/(page|injected|runner)\//.test(f))
    .filter((f) => /\bpage\.(scope|scopeAt|chosenFrameEntry)\(/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(SRC, f));
  expect(builders).toEqual([]);
});

// Issue 26 item 4: every call into the page runtime is a typed function sent as source (page/evaluate.ts,
// page/handles.ts, page/agent-refs.ts); none is spelled out in a string, where no compiler checks it.
it('builds no page-runtime call as a string outside injected/', () => {
  const spelled = files(SRC)
    .filter((f) => !f.includes('/injected/'))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          !/^\s*(\/\/|\/?\*)/.test(line) &&
          /(['"`])[^'"`]*\brt\.[a-zA-Z]+\.|globalThis\.__cdpSkill|(READ_RUNTIME|RUNTIME_GLOBAL)\}\??\./.test(line)
            ? [`${relative(SRC, f)}:${i + 1}: ${line.trim()}`]
            : [],
        ),
    );
  expect(spelled).toEqual([]);
});
