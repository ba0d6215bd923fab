// Which requests a `network` filter or a `route` rule names: a URL pattern (a substring, or a glob
// over the whole URL when it has a `*`), a status filter, and one vocabulary of resource types for
// what Chrome's Network domain and the page's resource timing each call them.

/** A status filter: `404`, `"4xx"`, `">=400"`, `"!=200"`, `"failed"` (≥ 400, or no response for a failure). */
export type StatusFilter =
  | { op: '=' | '!=' | '>' | '>=' | '<' | '<='; value: number }
  | { op: 'class'; value: number }
  | { op: 'failed' };

/** The resource types a filter takes: Chrome's Network.ResourceType, lowercased. */
export const RESOURCE_TYPES = [
  'document',
  'stylesheet',
  'image',
  'media',
  'font',
  'script',
  'xhr',
  'fetch',
  'eventsource',
  'websocket',
  'manifest',
  'ping',
  'preflight',
  'other',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** What a `network` step (list or HAR) keeps: all given conditions hold. */
export interface RequestFilter {
  url?: string;
  status?: StatusFilter;
  types?: readonly string[];
}

/** Whether a request (as listed: its URL, status when it got one, its failure, type when known) passes `filter`. */
export function requestMatcher(
  filter: RequestFilter,
): (r: { url: string; status?: number; error?: string; type?: string }) => boolean {
  const url = filter.url ? urlMatcher(filter.url) : undefined;
  return (r) =>
    (!url || url(r.url)) &&
    (!filter.status || matchesStatus(filter.status, r.status, r.error !== undefined)) &&
    (!filter.types || (r.type !== undefined && filter.types.includes(r.type)));
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `pattern` is a glob (has a `*`): it then matches the whole URL; otherwise it is a substring. */
const isGlob = (pattern: string): boolean => pattern.includes('*');

/** `pattern` as a test on URLs: `*` (and `**`) any characters; nothing else is special. */
export function urlMatcher(pattern: string): (url: string) => boolean {
  if (!isGlob(pattern)) return (url) => url.includes(pattern);
  const re = new RegExp(`^${pattern.split(/\*+/).map(escapeRegex).join('.*')}$`, 's');
  return (url) => re.test(url);
}

/**
 * The same pattern as Chrome's Fetch.RequestPattern.urlPattern (where `*` is any characters, `?`
 * one character and `\` escapes): Chrome pauses exactly the requests urlMatcher names.
 */
export function chromeUrlPattern(pattern: string): string {
  const literal = (s: string): string => s.replace(/[\\?]/g, '\\$&');
  if (!isGlob(pattern)) return `*${literal(pattern)}*`;
  return pattern.split(/\*+/).map(literal).join('*');
}

/** `failedWithout`: the request got no response because it failed (a pending one has none either, and has not failed). */
export function matchesStatus(filter: StatusFilter, status: number | undefined, failedWithout = false): boolean {
  if (filter.op === 'failed') return status ? status >= 400 : failedWithout;
  if (!status) return false;
  const v = filter.value;
  switch (filter.op) {
    case 'class':
      return Math.floor(status / 100) === v;
    case '=':
      return status === v;
    case '!=':
      return status !== v;
    case '>':
      return status > v;
    case '>=':
      return status >= v;
    case '<':
      return status < v;
    case '<=':
      return status <= v;
  }
}

/** Chrome's Network.ResourceType in our vocabulary. */
export function typeOfCdp(type: string | undefined): string {
  return (type ?? 'other').toLowerCase();
}

const EXTENSION_TYPES: [RegExp, ResourceType][] = [
  [/\.css$/i, 'stylesheet'],
  [/\.(woff2?|ttf|otf|eot)$/i, 'font'],
  [/\.(png|jpe?g|gif|webp|avif|svg|ico|bmp)$/i, 'image'],
  [/\.m?js$/i, 'script'],
  [/\.(mp4|webm|mp3|ogg|wav|m4a)$/i, 'media'],
];

/** A resource timing initiator type in our vocabulary; `link`, `css` and `other` by the URL's extension. */
export function typeOfInitiator(initiator: string, url: string): string {
  switch (initiator) {
    case 'navigation':
    case 'iframe':
    case 'frame':
      return 'document';
    case 'fetch':
      return 'fetch';
    case 'xmlhttprequest':
      return 'xhr';
    case 'img':
    case 'image':
    case 'input':
      return 'image';
    case 'script':
      return 'script';
    case 'video':
    case 'audio':
    case 'track':
      return 'media';
    case 'beacon':
    case 'ping':
      return 'ping';
  }
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // not a URL we can parse: its extension, as written
  }
  return EXTENSION_TYPES.find(([re]) => re.test(path))?.[1] ?? 'other';
}
