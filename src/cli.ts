#!/usr/bin/env node
// cdp-skill: one JSON command in (argument, or stdin), one JSON answer out, exit 0 or 1.
// Flags and subcommands go through commander, loaded only when there is no JSON to run.

import { readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  classify,
  deadlineAnswer,
  parseJson,
  runCommand,
  startClock,
  validateCommand,
  assemble,
} from './runner/index.js';
import { appendMetrics, writeDebugLog } from './capture/index.js';
import { abandonAll, homeDir, pendingNow, progress } from './common/index.js';

const STDIN_GUARD_MS = 100;
/** Words that are subcommands, not a JSON command given as the one argument. */
const SUBCOMMANDS = new Set(['help', 'install', 'uninstall', 'mcp']);
const STDIN_MAX_MS = 10_000;

function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let started = false;
    const finish = (): void => {
      clearTimeout(guard);
      clearTimeout(cap);
      process.stdin.pause();
      process.stdin.removeAllListeners();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    // SPEC §18.6: no data within 100 ms means nothing is piped; never wait on an idle stdin.
    const guard = setTimeout(() => {
      if (!started) finish();
    }, STDIN_GUARD_MS);
    const cap = setTimeout(finish, STDIN_MAX_MS);
    process.stdin.on('data', (c: Buffer) => {
      started = true;
      chunks.push(c);
    });
    process.stdin.on('end', finish);
    process.stdin.on('error', finish);
  });
}

let emitted = false;

/** Writes the one answer of this process and exits. */
function emit(output: unknown, exitCode: number): void {
  if (emitted) return;
  const text = `${JSON.stringify(output)}\n`; // before marking: if this throws, crash() still answers
  emitted = true;
  if (running) record(running, output, text, exitCode);
  abandonAll(); // locks still held, a Chrome half launched: nothing outlives an answered command
  writeStdout(Buffer.from(text));
  process.exit(exitCode);
}

/** How long a reader that stopped reading (a full, non-blocking pipe) may hold the answer up. */
const STDOUT_STALL_MS = 60_000;

/**
 * Writes straight to file descriptor 1: setting up process.stdout's stream costs a short-lived
 * process about a millisecond. A non-blocking pipe that is full is waited on (bounded); a reader
 * that left (EPIPE) ends it quietly.
 */
function writeStdout(data: Buffer): void {
  const stallUntil = Date.now() + STDOUT_STALL_MS;
  let offset = 0;
  while (offset < data.length) {
    try {
      offset += writeSync(1, data, offset);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > stallUntil) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2); // let the reader drain the pipe
    }
  }
}

/**
 * This run took the common path (acted on a page and captured it): the entry point
 * (scripts/cli-loader.cjs) listens for this event and only then writes V8's code cache.
 */
function tellLoaderWorthCaching(): void {
  (process as NodeJS.EventEmitter).emit(LOADER_CACHE_EVENT);
}
const LOADER_CACHE_EVENT = 'cdp-skill:captured-page';

/** The JSON command this process runs: whatever answers it (the end, the deadline, a signal) records it once. */
interface Running {
  text: string;
  startedMs: number;
  debug: boolean;
  request: unknown;
  actions: string[];
}
let running: Running | undefined;

/** CDP_METRICS_FILE's line and the --debug log of the command answered with `output`. */
function record(r: Running, output: unknown, body: string, exitCode: number): void {
  appendMetrics({
    ts: new Date().toISOString(),
    input_bytes: Buffer.byteLength(r.text),
    output_bytes: Buffer.byteLength(body),
    steps: r.actions.length,
    time_ms: Date.now() - r.startedMs,
  });
  const tab = (output as { tab?: unknown }).tab;
  if (r.debug)
    writeDebugLog(
      typeof tab === 'string' ? tab : undefined,
      r.actions,
      exitCode === 0 ? 'ok' : 'error',
      r.request,
      output,
    );
}

async function runJson(text: string, debug: boolean): Promise<void> {
  const me: Running = { text, startedMs: Date.now(), debug, request: text, actions: [] };
  running = me;
  let output: Record<string, unknown>;
  let ok = false;
  try {
    me.request = parseJson(text);
    const command = await validateCommand(me.request);
    me.actions = command.steps.map((s) => s.action);
    startClock(command);
    watchDeadline();
    const result = await runCommand(command);
    ({ output, ok } = result);
    if (result.capturedPage) tellLoaderWorthCaching();
  } catch (err) {
    const c = classify(err);
    output = assemble({ status: 'error', error: { type: c.type, message: c.message } });
  }
  emit(output, ok ? 0 : 1);
}

/** How often the clock is checked against the command's deadline. */
const WATCH_INTERVAL_MS = 50;

/**
 * Whatever Chrome does (frozen, flooding dialogs, never answering), the command answers within
 * the running step's timeout plus a small margin: with the steps done so far and what was pending.
 */
function watchDeadline(): void {
  const timer = setInterval(() => {
    if (Date.now() < progress.deadlineAt) return;
    clearInterval(timer);
    const { output, code } = deadlineAnswer();
    emit(output, code);
  }, WATCH_INTERVAL_MS);
  timer.unref();
}

/** A CLI killed politely (SIGTERM, Ctrl-C) still answers, and frees the tab for the next command. */
function onSignal(signal: NodeJS.Signals): void {
  const elapsed = Date.now() - progress.startedAt;
  const waiting = pendingNow();
  emit(
    assemble({
      status: 'error',
      tab: progress.tab,
      steps: progress.steps,
      error: {
        type: 'EXECUTION',
        category: 'connection',
        message:
          `Interrupted by ${signal} after ${elapsed}ms, during ${progress.phase}${waiting.length ? ` (waiting for ${waiting.join('; ')})` : ''}. ` +
          'The step may have partly run; the tab is free again: check its state with a snapshot before retrying.',
      },
    }),
    1,
  );
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** The package this CLI belongs to: the checkout, or the npm-installed package (dist/cli.js → ..). */
function packageRoot(): string {
  return dirname(dirname(fileURLToPath(import.meta.url)));
}

async function runInstall(action: 'install' | 'uninstall', copy: boolean, mcp?: string): Promise<void> {
  try {
    const install = await import('./install/index.js');
    if (mcp !== undefined) return emitMcpInstall(install, action, mcp);
    const report =
      action === 'install'
        ? {
            ...install.installSkill({ root: packageRoot(), home: homeDir(), copy }),
            mcp: install.mcpInstructions(packageRoot(), homeDir()),
          }
        : install.uninstallSkill({ home: homeDir() });
    emit(report, report.status === 'ok' ? 0 : 1);
  } catch (err) {
    emit({ status: 'error', action, error: { type: 'EXECUTION', message: (err as Error).message } }, 1);
  }
}

/** `install --mcp claude,cursor` / `uninstall --mcp …`: only the MCP server's entry in those clients' configuration. */
function emitMcpInstall(
  install: typeof import('./install/index.js'),
  action: 'install' | 'uninstall',
  mcp: string,
): void {
  const names = mcp.split(',').map((n) => n.trim());
  const known: readonly string[] = install.MCP_CLIENTS;
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length || !names.length) {
    emit(
      {
        status: 'error',
        action,
        error: { type: 'VALIDATION', message: `--mcp takes ${known.join(', ')} (comma-separated), got "${mcp}"` },
      },
      1,
    );
    return;
  }
  const targets = install.mcpTargets(homeDir()).filter((t) => names.includes(t.client));
  const entry = install.mcpServerEntry(packageRoot());
  const reports = targets.map((t) => (action === 'install' ? install.installMcp(t, entry) : install.uninstallMcp(t)));
  const conflicts = reports.filter((r) => r.result === 'conflict');
  emit(
    {
      status: conflicts.length ? 'error' : 'ok',
      action,
      mcp: reports,
      ...(conflicts.length ? { error: { type: 'EXECUTION', message: conflicts.map((c) => c.reason).join(' ') } } : {}),
    },
    conflicts.length ? 1 : 0,
  );
}

async function runCli(args: string[]): Promise<void> {
  const { Command } = await import('commander');
  const { helpText } = await import('./help.js');
  const program = new Command('cdp-skill')
    .version(version(), '-V, --version')
    .usage("'<json>'  (or JSON on stdin)")
    .description('Drive Chrome over the DevTools Protocol with one JSON command; answers in JSON.')
    .option('--debug', 'write the request and response to ./log/')
    .addHelpText('after', helpText())
    .argument('[json]', 'the command, e.g. \'{"steps":[{"openTab":"https://example.com"}]}\'')
    .action(async (json: string | undefined, opts: { debug?: boolean }) =>
      runJson(json ?? (await readStdin()), Boolean(opts.debug)),
    );
  // Errors are answered as JSON on stdout (exitOverride); subcommands inherit both settings.
  program.configureOutput({ outputError: () => {} });
  program.exitOverride((err) => {
    if (err.exitCode === 0) process.exit(0);
    emit(
      {
        status: 'error',
        error: {
          type: 'PARSE',
          message: `${err.message.replace(/^error: /, '').replace(/\.$/, '')}. Usage: cdp-skill '<json>'`,
        },
      },
      1,
    );
    throw new Error('exiting'); // commander requires a throw here; emit() ends the process
  });
  program.helpCommand('help [command]', 'show help for cdp-skill or a subcommand');
  program
    .command('install')
    .description(
      'Install the skill into ~/.claude/skills and ~/.codex/skills: a link from a git checkout, a copy from npm',
    )
    .option('--copy', 'copy the files even from a git checkout')
    .option('--mcp <clients>', 'instead: add the MCP server to claude, cursor and/or vscode (comma-separated)')
    .action(async (opts: { copy?: boolean; mcp?: string }) => runInstall('install', Boolean(opts.copy), opts.mcp));
  program
    .command('mcp')
    .description('Serve the same engine over MCP on stdio: one tool, "browser", taking the same JSON command')
    .action(runMcp);
  program
    .command('uninstall')
    .description('Remove what install put there, and nothing else')
    .option('--mcp <clients>', 'instead: remove the MCP server from claude, cursor and/or vscode')
    .action(async (opts: { mcp?: string }) => runInstall('uninstall', false, opts.mcp));
  await program.parseAsync(args, { from: 'user' });
}

/**
 * `cdp-skill mcp`: the MCP server takes the process over. Its bundle (dist/mcp.bundle.cjs, with the
 * SDK) is loaded only here; the CLI's handlers, which answer on stdout and exit, leave first.
 */
async function runMcp(): Promise<void> {
  process.removeListener('uncaughtException', crash);
  process.removeListener('unhandledRejection', crash);
  process.removeListener('SIGTERM', onSignal);
  process.removeListener('SIGINT', onSignal);
  const { serveMcp } = await import('./mcp/index.js');
  await serveMcp({ version: version() });
}

async function main(): Promise<void> {
  const raw = process.argv.slice(2);
  if (raw[0] === 'mcp' && raw.length === 1) return runMcp();
  const debug = raw.includes('--debug');
  const args = raw.filter((a) => a !== '--debug');
  if (args.length === 0) return runJson(await readStdin(), debug);
  if (args.length === 1 && !args[0]!.startsWith('-') && !SUBCOMMANDS.has(args[0]!)) return runJson(args[0]!, debug);
  return runCli(raw);
}

function crash(err: unknown): void {
  const c = classify(err);
  emit({ status: 'error', error: { type: c.type, message: `Internal error: ${c.message}` } }, 1);
}
process.on('uncaughtException', crash);
process.on('SIGTERM', onSignal);
process.on('SIGINT', onSignal);
process.on('unhandledRejection', crash);
main().catch(crash);
