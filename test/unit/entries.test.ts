// Folding a header the agent already saw, unchanged (the page's view diff says which).
import { expect, it } from 'vitest';
import { foldUnchanged, landmarkKey, renderYaml } from '../../src/aria/index.js';
import type { AriaNode } from '../../src/injected/aria-snapshot.js';

const button: AriaNode = { role: 'button', name: 'Open', ref: 's1e1' };

it('folds a top-level header the page found unchanged, and nothing else', () => {
  const nav: AriaNode = { role: 'banner', children: [{ role: 'link', name: 'Home', ref: 's1e2' }] };
  const main: AriaNode = { role: 'main', children: [button] };
  const unchanged = new Set([landmarkKey('banner', undefined), landmarkKey('main', undefined)]);
  expect(renderYaml(foldUnchanged([nav, main], unchanged))).toBe(
    '- banner: (unchanged since your last view)\n- main:\n  - button "Open" [ref=s1e1]',
  );
  expect(foldUnchanged([nav], new Set())).toEqual([nav]);
  const named: AriaNode = { role: 'navigation', name: 'Main', children: [button] };
  expect(foldUnchanged([named], new Set([landmarkKey('navigation', 'Other')]))).toEqual([named]);
});
