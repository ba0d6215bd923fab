// install/mcp-config.ts: our MCP entry in each client's configuration, written idempotently, only
// ours, and a conflict whenever the file or the name holds something else. Oracle: the files on disk.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installMcp, mcpServerEntry, mcpTargets, uninstallMcp } from '../../src/install/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'cdp-skill-mcp-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const read = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));

describe('mcpTargets', () => {
  it('names each client’s user configuration, per platform', () => {
    const linux = mcpTargets('/h', 'linux');
    expect(linux.map((t) => [t.client, t.path, t.key])).toEqual([
      ['claude', '/h/.claude.json', 'mcpServers'],
      ['cursor', '/h/.cursor/mcp.json', 'mcpServers'],
      ['vscode', '/h/.config/Code/User/mcp.json', 'servers'],
    ]);
    expect(mcpTargets('/h', 'darwin')[2]!.path).toBe('/h/Library/Application Support/Code/User/mcp.json');
    expect(mcpTargets('/h', 'win32', 'C:/Users/a/AppData/Roaming')[2]!.path).toContain('Roaming');
  });
});

describe('installMcp / uninstallMcp', () => {
  const entry = mcpServerEntry('/opt/cdp-skill', '/usr/bin/node');

  it('creates, leaves unchanged, updates from another root, and keeps everything else in the file', () => {
    const home = join(scratch, 'a');
    const [claude] = mcpTargets(home, 'linux');
    mkdirSync(home, { recursive: true });
    writeFileSync(claude!.path, JSON.stringify({ numStartups: 7, mcpServers: { other: { command: 'x' } } }));
    expect(installMcp(claude!, entry).result).toBe('created');
    expect(read(claude!.path)).toEqual({
      numStartups: 7,
      mcpServers: {
        other: { command: 'x' },
        'cdp-skill': { type: 'stdio', command: '/usr/bin/node', args: ['/opt/cdp-skill/dist/cli.js', 'mcp'] },
      },
    });
    expect(installMcp(claude!, entry).result).toBe('unchanged');
    expect(installMcp(claude!, mcpServerEntry('/home/me/cdp-skill', '/usr/bin/node')).result).toBe('updated');
    expect(read(claude!.path).mcpServers['cdp-skill'].args[0]).toBe('/home/me/cdp-skill/dist/cli.js');
    expect(uninstallMcp(claude!).result).toBe('removed');
    expect(read(claude!.path)).toEqual({ numStartups: 7, mcpServers: { other: { command: 'x' } } });
    expect(uninstallMcp(claude!).result).toBe('absent');
  });

  it('makes the file and its folder when the client has none (VS Code’s "servers")', () => {
    const home = join(scratch, 'b');
    const vscode = mcpTargets(home, 'linux')[2]!;
    expect(installMcp(vscode, entry).result).toBe('created');
    expect(read(vscode.path)).toEqual({ servers: { 'cdp-skill': entry } });
  });

  it('leaves a foreign entry under our name and a file that is not JSON untouched', () => {
    const home = join(scratch, 'c');
    const cursor = mcpTargets(home, 'linux')[1]!;
    mkdirSync(join(home, '.cursor'), { recursive: true });
    const foreign = JSON.stringify({ mcpServers: { 'cdp-skill': { command: 'npx', args: ['some-other-thing'] } } });
    writeFileSync(cursor.path, foreign);
    const r = installMcp(cursor, entry);
    expect(r.result).toBe('conflict');
    expect(r.reason).toMatch(/runs something else/);
    expect(uninstallMcp(cursor).result).toBe('notOurs');
    expect(readFileSync(cursor.path, 'utf8')).toBe(foreign);
    writeFileSync(cursor.path, '{ "mcpServers": { // a comment\n');
    expect(installMcp(cursor, entry).result).toBe('conflict');
    expect(readFileSync(cursor.path, 'utf8')).toBe('{ "mcpServers": { // a comment\n');
  });
});
