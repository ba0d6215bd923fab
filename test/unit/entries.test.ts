// Which snapshot nodes count as seen (refs, live regions, layers such as dialogs), for folding a
// header the agent already saw.
import { expect, it } from 'vitest';
import { diffEntries, foldUnchanged, renderYaml } from '../../src/aria/index.js';
import type { AriaNode } from '../../src/injected/aria-snapshot.js';

const button: AriaNode = { role: 'button', name: 'Open', ref: 's1e1' };

it('tells two dialogs of one name apart and keeps live regions keyed by role', () => {
  const entries = diffEntries([
    { role: 'dialog', name: 'Alert' }, { role: 'dialog', name: 'Alert' }, { role: 'status', live: true, text: 'Saved' },
  ]);
  expect(entries.map((e) => e.key)).toEqual(['dialog "Alert"', 'dialog "Alert" 2', 'status#0']);
});

it('folds a header the agent saw unchanged, and keeps one that changed or holds no refs', () => {
  const nav = (name: string): AriaNode => ({ role: 'banner', children: [{ role: 'link', name, ref: 's1e2' }] });
  const main: AriaNode = { role: 'main', children: [button] };
  const seen = new Set(diffEntries([nav('Home'), main]).map((e) => e.line));
  expect(renderYaml(foldUnchanged([nav('Home'), main], seen))).toBe('- banner: (unchanged since your last view)\n- main:\n  - button "Open" [ref=s1e1]');
  expect(renderYaml(foldUnchanged([nav('Cart (1)')], seen))).toBe('- banner:\n  - link "Cart (1)" [ref=s1e2]');
  const textOnly: AriaNode = { role: 'contentinfo', children: [{ role: 'text', text: '© Acme' }] };
  expect(foldUnchanged([textOnly], seen)).toEqual([textOnly]);
});
