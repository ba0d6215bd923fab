// A cookie Chrome reported (Storage.getCookies), as Chrome takes it back (Storage.setCookies):
// used to restore a saved state (issue 21.4) and a profile's session cookies.

import type { Protocol } from './protocol.js';

/**
 * A host-only cookie goes back by its URL (a `domain` would make it a domain cookie), a domain
 * cookie (".example.com") by its domain; a session cookie without an expiry.
 */
export function asCookieParam(c: Protocol.Network.Cookie): Protocol.Network.CookieParam {
  const hostOnly = !c.domain.startsWith('.');
  return {
    name: c.name,
    value: c.value,
    ...(hostOnly ? { url: `${c.secure ? 'https' : 'http'}://${c.domain}${c.path || '/'}` } : { domain: c.domain }),
    path: c.path || '/',
    secure: c.secure === true,
    httpOnly: c.httpOnly === true,
    ...(c.sameSite ? { sameSite: c.sameSite } : {}),
    ...(!c.session && typeof c.expires === 'number' && c.expires > 0 ? { expires: c.expires } : {}),
    ...(c.priority ? { priority: c.priority } : {}),
    ...(c.partitionKey ? { partitionKey: c.partitionKey } : {}),
  };
}
