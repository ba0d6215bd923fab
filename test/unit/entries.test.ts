// Which snapshot nodes the viewport diff tracks: refs, live regions, and layers such as dialogs.
import { expect, it } from 'vitest';
import { diffEntries } from '../../src/aria/index.js';
import { diffViewport } from '../../src/diff/index.js';
import type { AriaNode } from '../../src/injected/aria-snapshot.js';

const button: AriaNode = { role: 'button', name: 'Open', ref: 's1e1' };

it('reports a dialog that opened even though it has no ref', () => {
  const before = diffEntries([button]);
  const after = diffEntries([button, { role: 'dialog', name: 'Command palette', children: [{ role: 'text', text: 'Type a command' }] }]);
  const changes = diffViewport(before, after, ['press']);
  expect(changes?.summary).toBe('Pressed. 1 added (dialog "Command palette").');
  expect(changes?.added).toEqual(['- dialog "Command palette"']);
});

it('tells two dialogs of one name apart and keeps live regions keyed by role', () => {
  const entries = diffEntries([
    { role: 'dialog', name: 'Alert' }, { role: 'dialog', name: 'Alert' }, { role: 'status', live: true, text: 'Saved' },
  ]);
  expect(entries.map((e) => e.key)).toEqual(['dialog "Alert"', 'dialog "Alert" 2', 'status#0']);
});
