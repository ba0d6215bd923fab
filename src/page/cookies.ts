// Cookies of a tab's browser context through the Network domain: read for URLs, set (and read
// back, so a cookie Chrome refused is never reported as set), and clear — only the cookies the
// page can see, or those named, never the whole browser's (other agents share it).

import { ExecutionError, StepValidationError, type Deadline } from '../common/index.js';
import { isCookieRefused, type CdpSession, type Protocol } from '../cdp/index.js';

export type SameSite = 'Strict' | 'Lax' | 'None';

export interface CookieSpec {
  name: string;
  value: string;
  url?: string;
  domain?: string;
  path?: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: SameSite;
  /** Seconds since the epoch; omitted = a session cookie. */
  expires?: number;
}

export interface CookieView {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires?: number;
  httpOnly?: true;
  secure?: true;
  sameSite?: string;
}

export interface CookieFilter {
  name?: string;
  domain?: string;
  path?: string;
}

const MAX_VALUE_CHARS = 1_000;

/** The compact form agents read: no false flags, no expiry for session cookies. */
export function cookieView(c: Protocol.Network.Cookie): CookieView {
  return {
    name: c.name,
    value: c.value.length > MAX_VALUE_CHARS ? `${c.value.slice(0, MAX_VALUE_CHARS - 1)}…` : c.value,
    domain: c.domain,
    path: c.path,
    ...(c.session || c.expires < 0 ? {} : { expires: Math.round(c.expires) }),
    ...(c.httpOnly ? { httpOnly: true as const } : {}),
    ...(c.secure ? { secure: true as const } : {}),
    ...(c.sameSite ? { sameSite: c.sameSite } : {}),
  };
}

function requireHttpUrl(url: string): string {
  if (!/^https?:/i.test(url))
    throw new StepValidationError(
      `The page is at ${url}, which has no cookies: navigate to a web page first, or give "url" or "domain"`,
    );
  return url;
}

/** A URL the cookie applies to, to read it back. */
export function cookieUrl(c: CookieSpec): string {
  if (c.url) return c.url;
  return `${c.secure ? 'https' : 'http'}://${(c.domain ?? '').replace(/^\./, '')}${c.path ?? '/'}`;
}

export async function readCookies(
  session: CdpSession,
  urls: string[],
  deadline: Deadline,
): Promise<Protocol.Network.Cookie[]> {
  const r = await deadline.race(session.send('Network.getCookies', { urls }), 'the cookies');
  return r.cookies;
}

export async function getCookies(session: CdpSession, urls: string[], deadline: Deadline): Promise<CookieView[]> {
  return (await readCookies(session, urls.map(requireHttpUrl), deadline)).map(cookieView);
}

export async function setCookies(
  session: CdpSession,
  specs: CookieSpec[],
  pageUrl: string,
  deadline: Deadline,
): Promise<number> {
  const cookies = specs.map((c) => (c.url || c.domain ? c : { ...c, url: requireHttpUrl(pageUrl) }));
  try {
    await deadline.race(session.send('Network.setCookies', { cookies }), 'the cookies to be set');
  } catch (err) {
    if (err instanceof Error && isCookieRefused(err))
      throw new StepValidationError(`Chrome refused the cookies: ${err.message}`);
    throw err;
  }
  const seen = await readCookies(session, [...new Set(cookies.map(cookieUrl))], deadline);
  const missing = cookies.filter((c) => !seen.some((s) => s.name === c.name && s.value === c.value));
  if (missing.length) {
    throw new ExecutionError(
      `Chrome did not keep ${missing.map((c) => `"${c.name}"`).join(', ')} (a Secure cookie needs https, SameSite=None needs Secure, an expiry in the past deletes; the domain must match the URL)`,
    );
  }
  return cookies.length;
}

function domainMatches(cookieDomain: string, domain: string): boolean {
  return cookieDomain.replace(/^\./, '') === domain.replace(/^\./, '');
}

/** Deletes the page's cookies (`filter` narrows them; with a domain, that domain's cookies) and checks they are gone. */
export async function clearCookies(
  session: CdpSession,
  filter: CookieFilter,
  pageUrl: string,
  deadline: Deadline,
): Promise<number> {
  const matches = (c: Protocol.Network.Cookie): boolean =>
    (!filter.name || c.name === filter.name) &&
    (!filter.domain || domainMatches(c.domain, filter.domain)) &&
    (!filter.path || c.path === filter.path);
  const read = async (): Promise<Protocol.Network.Cookie[]> =>
    (filter.domain
      ? (await deadline.race(session.send('Storage.getCookies', {}), 'the cookies')).cookies
      : await readCookies(session, [requireHttpUrl(pageUrl)], deadline)
    ).filter(matches);
  const doomed = await read();
  await deadline.race(
    Promise.all(
      doomed.map((c) => session.send('Network.deleteCookies', { name: c.name, domain: c.domain, path: c.path })),
    ),
    'the cookies to be deleted',
  );
  const left = await read();
  if (left.length)
    throw new ExecutionError(`${left.length} cookie(s) could not be deleted: ${left.map((c) => c.name).join(', ')}`);
  return doomed.length;
}
