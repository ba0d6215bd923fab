// common/ — errors, deadlines and limits. Imports nothing from the rest of src/.
export * from './errors.js';
export { Deadline } from './deadline.js';
export {
  progress,
  newClock,
  setClockSource,
  type Clock,
  CAPTURE_PHASE,
  openWindow,
  pendingStart,
  pendingNow,
  tracked,
  onAbandon,
  abandonAll,
  ANSWER_MARGIN_MS,
  MIN_FIRST_WINDOW_MS,
  firstWindowMs,
  firstStepStart,
} from './progress.js';
export * from './limits.js';
export { stateDir, ensureStateDir } from './state-dir.js';
export {
  endpointSecrets,
  urlSecretsIn,
  AskedSecret,
  fieldSecrets,
  fieldSecretsMark,
  markEndpointSecrets,
  markSecret,
  knownSecrets,
  redactSecrets,
} from './secrets.js';
export { looksLikeToken } from './token-shape.js';
export { downloadsDir, incomingDownloadsDir } from './downloads-dir.js';
export { requireBuiltin } from './lazy.js';
export { homeDir } from './os-paths.js';
export { randomBytes } from './random.js';
export { sha1 } from './sha1.js';
