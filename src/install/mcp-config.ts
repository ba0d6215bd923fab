// The MCP server's entry in the common clients' configuration (issue 25): printed by every install,
// written by `install --mcp <client>` and removed by `uninstall --mcp <client>`. Only our own
// `cdp-skill` entry is ever written or removed: a file that is not JSON, or an entry under our name
// that runs something else, is a conflict left untouched (the skill install's rule).

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SKILL_NAME } from './layout.js';

export const MCP_CLIENTS = ['claude', 'cursor', 'vscode'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

export interface McpServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
}

export interface McpTarget {
  client: McpClient;
  /** The client's user-level configuration file. */
  path: string;
  /** The object in it that maps server names to servers. */
  key: 'mcpServers' | 'servers';
}

export type McpResult = 'created' | 'updated' | 'unchanged' | 'conflict' | 'removed' | 'absent' | 'notOurs';

export interface McpReport {
  client: McpClient;
  path: string;
  result: McpResult;
  reason?: string;
}

/** VS Code's user profile folder, per platform. */
function vscodeUserDir(home: string, platform: NodeJS.Platform, appData: string | undefined): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Code', 'User');
  if (platform === 'win32') return join(appData ?? join(home, 'AppData', 'Roaming'), 'Code', 'User');
  return join(home, '.config', 'Code', 'User');
}

/** Where each client keeps its user-level MCP servers. */
export function mcpTargets(
  home: string,
  platform: NodeJS.Platform = process.platform,
  appData = process.env.APPDATA,
): McpTarget[] {
  return [
    { client: 'claude', path: join(home, '.claude.json'), key: 'mcpServers' },
    { client: 'cursor', path: join(home, '.cursor', 'mcp.json'), key: 'mcpServers' },
    { client: 'vscode', path: join(vscodeUserDir(home, platform, appData), 'mcp.json'), key: 'servers' },
  ];
}

/** The server as a client starts it: this Node and this package's CLI, by absolute paths (GUI clients have no shell PATH). */
export function mcpServerEntry(root: string, node = process.execPath): McpServerEntry {
  return { type: 'stdio', command: node, args: [join(root, 'dist', 'cli.js'), 'mcp'] };
}

/** An entry cdp-skill wrote: a stdio server running some cdp-skill CLI's `mcp`. */
function isOurs(entry: unknown): boolean {
  const e = entry as { command?: unknown; args?: unknown };
  if (!e || typeof e !== 'object' || !Array.isArray(e.args)) return false;
  const args = e.args as unknown[];
  return args.at(-1) === 'mcp' && typeof args.at(-2) === 'string' && /dist[\\/]cli\.js$/.test(args.at(-2) as string);
}

type Config = Record<string, unknown>;

/** The file's JSON object; undefined when there is no file; an Error when it is something we must not touch. */
function readConfig(path: string): Config | undefined | Error {
  if (!existsSync(path)) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Config;
    return new Error(`${path} is JSON but not an object; left untouched.`);
  } catch (err) {
    return new Error(`${path} is not valid JSON (${(err as Error).message}); left untouched.`);
  }
}

/** Writes the whole file anew beside it and renames it into place: a reader never sees it half written. */
function writeConfig(path: string, config: Config): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/** Puts our entry into one client's configuration, idempotently. */
export function installMcp(target: McpTarget, entry: McpServerEntry): McpReport {
  const report = (result: McpResult, reason?: string): McpReport => ({
    client: target.client,
    path: target.path,
    result,
    ...(reason ? { reason } : {}),
  });
  const config = readConfig(target.path);
  if (config instanceof Error) return report('conflict', config.message);
  const servers = (config?.[target.key] ?? {}) as Record<string, unknown>;
  if (typeof servers !== 'object' || Array.isArray(servers))
    return report('conflict', `"${target.key}" in ${target.path} is not an object; left untouched.`);
  const existing = servers[SKILL_NAME];
  if (existing !== undefined && !isOurs(existing))
    return report(
      'conflict',
      `${target.path} already has a "${SKILL_NAME}" server that runs something else; left untouched. Rename or remove it and run install again.`,
    );
  if (JSON.stringify(existing) === JSON.stringify(entry)) return report('unchanged');
  writeConfig(target.path, { ...config, [target.key]: { ...servers, [SKILL_NAME]: entry } });
  return report(existing === undefined ? 'created' : 'updated');
}

/** Takes our entry out of one client's configuration, and nothing else. */
export function uninstallMcp(target: McpTarget): McpReport {
  const base = { client: target.client, path: target.path };
  const config = readConfig(target.path);
  if (config instanceof Error) return { ...base, result: 'notOurs', reason: config.message };
  const servers = config?.[target.key] as Record<string, unknown> | undefined;
  const existing = servers?.[SKILL_NAME];
  if (!config || !servers || existing === undefined) return { ...base, result: 'absent' };
  if (!isOurs(existing)) return { ...base, result: 'notOurs', reason: 'runs something else; left untouched' };
  const { [SKILL_NAME]: _ours, ...rest } = servers;
  writeConfig(target.path, { ...config, [target.key]: rest });
  return { ...base, result: 'removed' };
}

/** What every install prints: the entry, where each client keeps it, and the command that writes it. */
export function mcpInstructions(root: string, home: string): Record<string, unknown> {
  const entry = mcpServerEntry(root);
  return {
    server: { [SKILL_NAME]: entry },
    clients: Object.fromEntries(mcpTargets(home).map((t) => [t.client, `${t.path} ("${t.key}")`])),
    write: `cdp-skill install --mcp ${MCP_CLIENTS.join('|')}`,
  };
}
