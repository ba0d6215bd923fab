// The automatic lookup after goto / openTab with a URL / connectTab (SPEC §15.3): which domain a
// page belongs to, whether it has a profile, and whether to ask the agent to write one.

import { isLocalHost, normaliseDomain } from './domain.js';
import { readSiteProfile } from './store.js';

export interface LookupOptions {
  /** False with CDP_SKILL_PROFILES=off: existing profiles still show, the prompt does not. */
  prompts: boolean;
  /** Test-only (CDP_SKILL_PROFILES_ALLOW_LOCAL=1): local hosts prompt too. */
  allowLocal: boolean;
}

export interface LookupPlan {
  domain: string;
  /** Ask for a profile when none exists. */
  prompt: boolean;
}

export interface ActionRequired {
  action: 'createSiteProfile';
  domain: string;
  message: string;
}

export interface ProfileLookup {
  siteProfile?: string;
  actionRequired?: ActionRequired;
}

export function lookupOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): LookupOptions {
  return {
    prompts: !/^(off|0|false|no)$/i.test(env.CDP_SKILL_PROFILES ?? ''),
    allowLocal: env.CDP_SKILL_PROFILES_ALLOW_LOCAL === '1',
  };
}

/** Only http(s) pages have a site; file:, about:, data:, chrome: and the like have none. */
export function planProfileLookup(url: string, options: LookupOptions): LookupPlan | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const result = normaliseDomain(parsed.host);
  if ('problem' in result) return undefined;
  return { domain: result.domain, prompt: options.prompts && (options.allowLocal || !isLocalHost(parsed.hostname)) };
}

export function createProfileMessage(domain: string): string {
  return (
    `No site profile for ${domain} yet. Stop and create one before your task: snapshot the page, detect its ` +
    `framework with pageFunction, then writeSiteProfile {"domain":"${domain}","content":"# ${domain}\\n…"} ` +
    'with what helps the next visit (Environment, Quirks, Strategies, Regions, Recipes). Update it after your task.'
  );
}

/** The `siteProfile` / `actionRequired` fields for a page the command navigated to. */
export async function lookupSiteProfile(url: string, options = lookupOptionsFromEnv()): Promise<ProfileLookup> {
  const plan = planProfileLookup(url, options);
  if (!plan) return {};
  const content = await readSiteProfile(plan.domain);
  if (content !== undefined) return { siteProfile: content };
  if (!plan.prompt) return {};
  return {
    actionRequired: { action: 'createSiteProfile', domain: plan.domain, message: createProfileMessage(plan.domain) },
  };
}
