// profiles/ — site profiles: per-domain markdown the agent writes and reads back (SPEC §15). fs only.
export { normaliseDomain, isLocalHost } from './domain.js';
export type { DomainResult } from './domain.js';
export { profilesDir, profilePath, readSiteProfile, writeSiteProfile, MAX_PROFILE_BYTES } from './store.js';
export { lookupSiteProfile, lookupOptionsFromEnv, planProfileLookup, createProfileMessage } from './lookup.js';
export type { LookupOptions, LookupPlan, ProfileLookup, ActionRequired } from './lookup.js';
