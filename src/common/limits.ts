// Defaults and caps named once. Every wait in the tool is bounded by one of these.

export const DEFAULT_STEP_TIMEOUT_MS = 30_000;
export const MAX_TIMEOUT_MS = 300_000;
export const DEFAULT_HOST = '127.0.0.1';
/**
 * The debugging port the user named for commands that name none (CDP_SKILL_PORT). Without it,
 * commands use cdp-skill's own Chrome on a port Chrome picks (issue 15: no fixed, well-known port).
 */
export const NAMED_PORT = portFromEnv(process.env.CDP_SKILL_PORT);

function portFromEnv(value: string | undefined): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : undefined;
}

/** A single CDP command that gets no answer in this time is a dead connection, not a slow page. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;
/** Chrome must answer /json/version within this after launch (SPEC §4: poll every 100 ms for 10 s). */
export const LAUNCH_TIMEOUT_MS = 10_000;
export const LAUNCH_POLL_INTERVAL_MS = 100;
/** An HTTP discovery probe of a port; connection refused answers at once, a black hole does not. */
export const PROBE_TIMEOUT_MS = 2_000;
/** Waiting for the registry lock held by another process. */
export const REGISTRY_LOCK_TIMEOUT_MS = 5_000;
/** A lock older than this is left behind by a killed process. */
export const STALE_LOCK_MS = 10_000;
/** The automatic after-command screenshot may not hold up the answer longer than this. */
export const AUTO_SCREENSHOT_TIMEOUT_MS = 5_000;
/** Largest full-page screenshot side (Chrome's texture limit). */
export const MAX_SCREENSHOT_SIDE_PX = 16_384;
/** Polling interval for waits that cannot be event-driven. */
export const POLL_INTERVAL_MS = 100;
/** Network idle window for waitUntil networkidle and wait {networkIdle}. */
export const NETWORK_IDLE_MS = 500;
/** Titles and URLs in answers (a page can make either megabytes long; issue 15 item 7). */
export const MAX_TITLE_CHARS = 300;
export const MAX_URL_CHARS = 2_000;

/** `text` cut to `max` characters, saying how much was cut. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…[cut: ${text.length - max} more characters]` : text;
}

/** Console messages reported per command, and their text cap. */
export const MAX_CONSOLE_MESSAGES = 20;
export const MAX_CONSOLE_TEXT = 500;

export function clampTimeout(ms: number): number {
  return Math.min(Math.max(0, ms), MAX_TIMEOUT_MS);
}
