// Site-profile domains (SPEC §15.2): one normal form per site, and only names that are safe as a
// file name, so no domain can ever reach outside the profiles folder. Pure functions.

import { domainToASCII } from 'node:url';

/** Longest normalised domain: with ".md" it stays under the 255-byte file-name limit. */
const MAX_DOMAIN_LENGTH = 240;
/** A label of a normalised domain. `_` is allowed so that a normalised `host_port` reads back as itself. */
const LABEL = /^[a-z0-9_-]+$/;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//;

export type DomainResult = { domain: string } | { problem: string };

function problem(input: string): DomainResult {
  const shown = JSON.stringify(input.length > 60 ? `${input.slice(0, 60)}…` : input);
  return {
    problem: `${shown} is not a domain: give a host name like "github.com" (letters, digits, "-", "."; optional ":port") or a URL`,
  };
}

/**
 * `www.GitHub.com` → `github.com`; `localhost:3000` → `localhost_3000`; a URL → its host, normalised.
 * Anything else with characters outside [a-z0-9.-_] (slashes, backslashes, NUL, "..", empty) is refused.
 */
export function normaliseDomain(input: string): DomainResult {
  let host = input.trim().toLowerCase();
  if (HAS_SCHEME.test(host)) {
    try {
      host = new URL(host).host;
    } catch {
      return problem(input);
    }
  } else if (/[^\x20-\x7e]/.test(host) && !/[\x00-\x1f\x7f/\\]/.test(host)) {
    host = domainToASCII(host) || host; // bücher.de → xn--bcher-kva.de, as URLs have it
  }
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(host);
  if (!m) return problem(input);
  let name = m[1]!;
  const port = m[2];
  if (name.startsWith('[')) name = name.slice(1, -1).replaceAll(':', '-'); // IPv6 literal
  name = name.replace(/\.$/, '');
  if (name.startsWith('www.')) name = name.slice(4);
  if (!name || !name.split('.').every((label) => LABEL.test(label))) return problem(input);
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return problem(input);
  const domain = port !== undefined ? `${name}_${Number(port)}` : name;
  if (domain.length > MAX_DOMAIN_LENGTH) return { problem: `domain is longer than ${MAX_DOMAIN_LENGTH} characters` };
  return { domain };
}

function ipv4(host: string): number[] | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) < 256)) return undefined;
  return parts.map(Number);
}

function isPrivateIpv4([a, b]: number[]): boolean {
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254)
  );
}

/**
 * Loopback, private-network and link-local hosts (a URL's `hostname`): the agent's own dev servers
 * and LAN devices, where asking for a site profile would be noise.
 */
export function isLocalHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local')) return true;
  const v4 = ipv4(h);
  if (v4) return isPrivateIpv4(v4);
  if (!h.startsWith('[')) return false;
  const v6 = h.slice(1, -1);
  if (v6 === '::1' || v6 === '::') return true;
  if (/^f[cd][0-9a-f]{0,2}:/.test(v6) || /^fe[89ab][0-9a-f]?:/.test(v6)) return true; // fc00::/7, fe80::/10
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6); // ::ffff:7f00:1 = 127.0.0.1
  if (mapped) {
    const hi = parseInt(mapped[1]!, 16);
    return isPrivateIpv4([hi >> 8, hi & 0xff]);
  }
  return false;
}
