// `cdp-skill mcp`: the same engine as the CLI behind an MCP server on stdio, with one tool. Calls
// run on a warm host (runner/warm-host.ts: connections and tabs kept, watched between calls) and
// side by side, each with its own clock; a call on a tab holds the tab's lock only while it runs.

import { AsyncLocalStorage } from 'node:async_hooks';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { appendMetrics } from '../capture/index.js';
import { abandonAll, newClock, progress, setClockSource, type Clock } from '../common/index.js';
import {
  assemble,
  classify,
  deadlineAnswer,
  runCommand,
  startClock,
  validateCommand,
  WarmHost,
  type Command,
} from '../runner/index.js';
import { browserTool, TOOL_NAME } from './tool.js';

/** How often a call's clock is checked against its deadline. */
const WATCH_INTERVAL_MS = 50;

const clocks = new AsyncLocalStorage<Clock>();

/** The answer as the tool's result: the CLI's JSON as text; an answer the CLI exits 1 with is a tool error. */
function toolResult(output: Record<string, unknown>, ok: boolean): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(output) }], ...(ok ? {} : { isError: true }) };
}

/** Resolves with the deadline answer once the call's clock runs out (checked while `running`). */
function deadlineOf(running: { done: boolean }): Promise<{ output: Record<string, unknown>; ok: boolean }> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (running.done) clearInterval(timer);
      else if (Date.now() >= progress.deadlineAt) {
        clearInterval(timer);
        const { output, code } = deadlineAnswer();
        resolve({ output, ok: code === 0 });
      }
    }, WATCH_INTERVAL_MS);
  });
}

/** Runs a validated command; the deadline answers for it when it does not end in time, and lets its tabs go. */
async function runWithin(
  command: Command,
  host: WarmHost,
  cancelled: AbortSignal,
): Promise<{ output: Record<string, unknown>; ok: boolean }> {
  startClock(command);
  const abandon = new AbortController();
  const onCancel = (): void => abandon.abort();
  cancelled.addEventListener('abort', onCancel, { once: true });
  const running = { done: false };
  try {
    return await Promise.race([runCommand(command, host, abandon.signal), deadlineOf(running)]);
  } finally {
    running.done = true;
    cancelled.removeEventListener('abort', onCancel);
    abandon.abort(); // a run the deadline answered for goes on without its tabs; a finished one ignores it
  }
}

/** One tool call, on a clock of its own: PARSE/VALIDATION failures answer as the CLI does, as tool errors. */
export function callBrowser(args: unknown, host: WarmHost, cancelled: AbortSignal): Promise<CallToolResult> {
  const startedMs = Date.now();
  return clocks.run(newClock(startedMs), async () => {
    let result: { output: Record<string, unknown>; ok: boolean };
    let steps = 0;
    try {
      const command = await validateCommand(args ?? {});
      steps = command.steps.length;
      result = await runWithin(command, host, cancelled);
    } catch (err) {
      const c = classify(err);
      result = { output: assemble({ status: 'error', error: { type: c.type, message: c.message } }), ok: false };
    }
    const text = JSON.stringify(result.output);
    appendMetrics({
      ts: new Date().toISOString(),
      input_bytes: Buffer.byteLength(JSON.stringify(args ?? {})),
      output_bytes: Buffer.byteLength(text),
      steps,
      time_ms: Date.now() - startedMs,
    });
    return toolResult(result.output, result.ok);
  });
}

/** Serves until the client closes stdin (or a signal): then the tabs are let go, Chrome and its tabs stay. */
export async function serveMcp(options: { version: string }): Promise<void> {
  setClockSource(() => clocks.getStore());
  const host = new WarmHost();
  const server = new Server({ name: 'cdp-skill', version: options.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [browserTool()] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name !== TOOL_NAME)
      return toolResult(
        assemble({
          status: 'error',
          error: {
            type: 'VALIDATION',
            message: `Unknown tool "${request.params.name}": the one tool is "${TOOL_NAME}".`,
          },
        }),
        false,
      );
    return callBrowser(request.params.arguments, host, extra.signal);
  });
  let closing = false;
  const shutdown = (): void => {
    if (closing) return;
    closing = true;
    host.close();
    abandonAll(); // locks still held by calls in flight
    process.exit(0);
  };
  // A late rejection of work a call abandoned must not end the server (nor reach stdout, the protocol's).
  process.on('unhandledRejection', (err) => process.stderr.write(`cdp-skill mcp: ${String(err)}\n`));
  process.on('uncaughtException', (err) => process.stderr.write(`cdp-skill mcp: ${err.stack ?? String(err)}\n`));
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.stdin.on('end', shutdown);
  server.onclose = shutdown;
  await server.connect(new StdioServerTransport());
}
