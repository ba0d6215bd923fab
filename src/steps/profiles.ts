// Site-profile steps: readSiteProfile, writeSiteProfile (SPEC §12.4, §15.5). No tab needed; the
// domain is normalised and checked while the command is validated, before anything runs.

import { normaliseDomain, readSiteProfile, writeSiteProfile, MAX_PROFILE_BYTES } from '../profiles/index.js';
import { defineStep, keysOf, type ParamSchema } from './registry.js';
import { obj, reqString, ParamError, describe } from './params.js';

function domainParam(raw: string): string {
  const result = normaliseDomain(raw);
  if ('problem' in result) throw new ParamError(`"domain": ${result.problem}`);
  return result.domain;
}

const READ_SITE_PROFILE_PARAMS: ParamSchema = {
  forms: ['"domain"'],
  keys: { domain: '' },
  returns: '{found, content}',
};

defineStep<{ domain: string }>({
  name: 'readSiteProfile',
  summary: 'Read what was learned about a site',
  params: READ_SITE_PROFILE_PARAMS,
  needsTab: false,
  readOnly: true,
  parse(v) {
    if (typeof v === 'string') return { domain: domainParam(v) };
    if (typeof v !== 'object' || v === null)
      throw new ParamError(`readSiteProfile takes "domain" or {domain}, got ${describe(v)}`);
    return { domain: domainParam(reqString(obj(v, keysOf(READ_SITE_PROFILE_PARAMS), 'readSiteProfile'), 'domain')) };
  },
  async run(_ctx, p) {
    const content = await readSiteProfile(p.domain);
    return content === undefined ? { found: false, domain: p.domain } : { found: true, domain: p.domain, content };
  },
});

const WRITE_SITE_PROFILE_PARAMS: ParamSchema = { keys: { domain: '', content: '' } };

defineStep<{ domain: string; content: string }>({
  name: 'writeSiteProfile',
  summary: 'Create or replace a site profile (markdown)',
  params: WRITE_SITE_PROFILE_PARAMS,
  needsTab: false,
  readOnly: true,
  parse(v) {
    const o = obj(v, keysOf(WRITE_SITE_PROFILE_PARAMS), 'writeSiteProfile');
    const domain = domainParam(reqString(o, 'domain'));
    const content = reqString(o, 'content');
    if (Buffer.byteLength(content) > MAX_PROFILE_BYTES) {
      throw new ParamError(
        `"content" is ${Buffer.byteLength(content)} bytes; keep a profile under ${MAX_PROFILE_BYTES}`,
      );
    }
    return { domain, content };
  },
  async run(_ctx, p) {
    return { written: true, path: await writeSiteProfile(p.domain, p.content), domain: p.domain };
  },
});
