// One place that turns any thrown value into output: the error type, the subtype name, a message
// an agent can act on (never a stack trace), and the failure category of the fixed set below.

import {
  CdpSkillError,
  ConnectionError,
  ContextDestroyedError,
  ElementNotEditableError,
  ElementNotFoundError,
  EvaluationError,
  ExecutionError,
  NavigationAbortedError,
  NavigationError,
  PageCrashedError,
  ParseError,
  RequestNotFoundError,
  StaleElementError,
  StepValidationError,
  TimeoutError,
  ValidationError,
  type ErrorType,
} from '../common/index.js';
import { isContextDestroyed, isStaleNode, isTargetClosed } from '../cdp/index.js';

/** Why a step failed, in words an agent can branch on. The set is fixed: documented, tested. */
export const FAILURE_CATEGORIES = [
  'selector-not-found',
  'invalid-selector',
  'stale-ref',
  'covered',
  'not-visible',
  'not-editable',
  'disabled',
  'option-not-found',
  'timeout',
  'navigation',
  'dialog-open',
  'frame',
  'evaluation',
  'crashed',
  'connection',
  'validation',
  'storage',
  'no-effect',
  'request-not-found',
] as const;
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

export interface ClassifiedError {
  type: ErrorType;
  /** The named subtype (TimeoutError, ElementNotFoundError, …), when it says more than the type. */
  name?: string;
  message: string;
  category: FailureCategory;
  /** What the thrower knew (target tried, interceptor, options…): input for the failure context. */
  details: Record<string, unknown>;
}

const isCategory = (v: unknown): v is FailureCategory =>
  typeof v === 'string' && (FAILURE_CATEGORIES as readonly string[]).includes(v);

/** Subclasses checked in order: the first match names the category when the thrower did not. */
const BY_CLASS: [abstract new (...args: never[]) => Error, FailureCategory][] = [
  [ConnectionError, 'connection'],
  [PageCrashedError, 'crashed'],
  [StaleElementError, 'stale-ref'],
  [ElementNotFoundError, 'selector-not-found'],
  [RequestNotFoundError, 'request-not-found'],
  [ElementNotEditableError, 'not-editable'],
  [NavigationAbortedError, 'navigation'],
  [NavigationError, 'navigation'],
  [ContextDestroyedError, 'navigation'],
  [TimeoutError, 'timeout'],
  [EvaluationError, 'evaluation'],
  [StepValidationError, 'validation'],
  [ValidationError, 'validation'],
  [ParseError, 'validation'],
];

/**
 * The category of a failure: what the thrower said (`details.category`, which knows more than the
 * class: a TimeoutError while the target stayed covered is "covered"), else its class, else the
 * error it wraps, else what Chrome's message says.
 */
export function categoryOf(err: unknown): FailureCategory {
  if (err instanceof CdpSkillError && isCategory(err.details.category)) return err.details.category;
  for (const [cls, category] of BY_CLASS) if (err instanceof cls) return category;
  if (err instanceof Error && err.cause !== undefined && err.cause !== err) {
    const inner = categoryOf(err.cause);
    if (inner !== 'evaluation') return inner;
  }
  if (isContextDestroyed(err)) return 'navigation';
  if (isStaleNode(err)) return 'stale-ref';
  if (isTargetClosed(err)) return 'connection';
  return 'evaluation';
}

/** What a file-system error code means, in words. */
const FS_REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory',
  ENOENT: 'it does not exist',
  EMFILE: 'too many open files',
  EIO: 'an input/output error',
};

const FS_SYSCALLS =
  /^(open|write|read|close|rename|mkdir|rmdir|unlink|scandir|stat|lstat|utime|chmod|symlink|copyfile|fsync|mkdtemp)$/;

/** A raw error of a file operation (it names its syscall), here or as the cause of another. */
function fsError(err: unknown): NodeJS.ErrnoException | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const x = e as NodeJS.ErrnoException;
    if (
      typeof x.code === 'string' &&
      x.code in FS_REASONS &&
      typeof x.syscall === 'string' &&
      FS_SYSCALLS.test(x.syscall)
    )
      return x;
  }
  return undefined;
}

/** A disk or HOME problem, said plainly with what to do, instead of raw errno text. */
function storageFailure(e: NodeJS.ErrnoException): ClassifiedError {
  const home = process.env.HOME && e.path?.startsWith(process.env.HOME);
  const fix = home
    ? 'Make HOME a writable directory with free space.'
    : 'Free disk space there, or point TMPDIR (or CDP_SKILL_STATE_DIR) at a writable disk.';
  return {
    type: 'EXECUTION',
    name: 'StorageError',
    category: 'storage',
    details: { path: e.path, code: e.code },
    message: `Cannot ${e.syscall} ${e.path ?? 'a file in the state directory'}: ${FS_REASONS[e.code!]} (${e.code}). ${fix}`,
  };
}

export function classify(err: unknown): ClassifiedError {
  const fs = err instanceof CdpSkillError ? undefined : fsError(err);
  if (fs) return storageFailure(fs);
  const category = categoryOf(err);
  if (err instanceof CdpSkillError) {
    const named = err instanceof ExecutionError && err.name !== 'ExecutionError' && err.name !== 'ProtocolError';
    return {
      type: err.type,
      ...(named ? { name: err.name } : {}),
      message: err.message,
      category,
      details: err.details,
    };
  }
  if (isContextDestroyed(err)) {
    return {
      type: 'EXECUTION',
      name: 'ContextDestroyedError',
      category,
      details: {},
      message:
        'The page navigated or reloaded while the step ran; its JavaScript context is gone. Retry the step on the new page.',
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { type: 'EXECUTION', message: message || 'Unknown error', category, details: {} };
}

export function isTimeout(err: unknown): boolean {
  return err instanceof TimeoutError;
}
