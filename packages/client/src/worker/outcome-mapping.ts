import { FinalError } from '../errors.js';
import { provesNotSent } from './not-sent.js';

/**
 * How a job error is classified by the caller (`classifyError` option). `'not-sent'`: the
 * error proves the running step's request never left (see {@link provesNotSent}, the default).
 */
export type ErrorClass = 'final' | 'retryable' | 'not-sent';

/** What the SDK tells the ledger after a job threw. */
export type JobReport =
  | { readonly kind: 'fail'; readonly retryable: boolean; readonly code: string; readonly message: string }
  /** `step` was not performed (`…/not-performed`), then a retryable failure. */
  | { readonly kind: 'not-sent'; readonly step: string; readonly code: string; readonly message: string }
  | { readonly kind: 'unknown'; readonly reason: string; readonly timedOut: boolean }
  | { readonly kind: 'release'; readonly reason: string };

/** What the mapping needs to know about the attempt. */
export interface FailedAttempt {
  readonly error: unknown;
  /** Steps started in THIS attempt (a step completed by an earlier attempt does not count). */
  readonly startedSteps: number;
  /** Steps started in this attempt and not completed (the one whose request may not have left). */
  readonly unfinishedSteps?: readonly string[];
  /** The caller's `signal` aborted (shutdown): give the operation back when that is safe. */
  readonly cancelled: boolean;
  readonly classifyError?: (error: unknown) => ErrorClass | undefined;
}

/**
 * The ledger's limits on what a worker reports (the DTOs of `…/fail`, `…/release`, `…/unknown`,
 * docs/api.md "Worker follow-ups"): `error.code` 1–256, `error.message` and `reason` at most
 * 4 096 — counted in UTF-16 code units, as the ledger's validation counts them.
 */
export const REPORT_LIMITS = { code: 256, text: 4096 } as const;

const RELEASE_PREFIX = 'cancelled before any step started: ';

/** U+0000 and unpaired UTF-16 surrogates: the ledger refuses them (its store cannot hold them). */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this removes
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` as the ledger accepts it: without U+0000 and unpaired surrogates (each becomes U+FFFD,
 * so the reader sees something was there), cut at a code point boundary to at most `max` UTF-16
 * units (never splitting a surrogate pair), `fallback` when nothing is left. Pure.
 */
export function reportable(text: string, max: number, fallback = ''): string {
  const clean = text.replace(UNSTORABLE, '\ufffd').trim();
  let out = '';
  for (const ch of clean) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out || fallback.slice(0, max);
}

/**
 * The outcome-mapping rule (package README, "Outcome mapping"):
 * - no step started in this attempt: cancelled → release; final (`FinalError` or the classifier
 *   says so) → final failure; anything else → retryable failure;
 * - a step started: final → final failure (the caller asserts nothing happened or will); an
 *   error that proves the request never left (`classifyError` says `'not-sent'`, or, when it
 *   says nothing, {@link provesNotSent}) while exactly one step of this attempt was started and
 *   it is unfinished → that step **not performed**, then a retryable failure; anything else, a
 *   timeout included → **unknown**, never a retryable failure, because the effect may have
 *   happened (the ledger refuses a retryable failure then: 409 `outcome-uncertain`).
 * Pure.
 */
export function reportFor(attempt: FailedAttempt): JobReport {
  const final = isFinal(attempt.error, attempt.classifyError);
  const message = text(attempt.error);
  if (final) return { kind: 'fail', retryable: false, code: codeOf(attempt.error, 'final'), message };
  if (attempt.startedSteps > 0) {
    const unfinished = attempt.unfinishedSteps ?? [];
    if (
      attempt.startedSteps === 1 &&
      unfinished.length === 1 &&
      isNotSent(attempt.error, attempt.classifyError)
    ) {
      return { kind: 'not-sent', step: unfinished[0]!, code: codeOf(attempt.error, 'not-sent'), message };
    }
    return { kind: 'unknown', reason: message, timedOut: isTimeout(attempt.error) };
  }
  if (attempt.cancelled)
    return { kind: 'release', reason: reportable(RELEASE_PREFIX + message, REPORT_LIMITS.text) };
  return { kind: 'fail', retryable: true, code: codeOf(attempt.error, 'job-error'), message };
}

/** Error codes of Node's network layer and undici that mean "no answer in time". */
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * Whether the job's error (or its `cause`) is a timeout: the SDK's own `JobTimeoutError`, a
 * `TimeoutError` (what `AbortSignal.timeout` aborts with, per the DOM standard), or a network
 * timeout code. The ledger then labels the Unknown `reported_timeout`, else `reported_by_worker`.
 */
function isTimeout(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { name, code, cause } = error as { name?: unknown; code?: unknown; cause?: unknown };
  if (name === 'JobTimeoutError' || name === 'TimeoutError') return true;
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return true;
  return isTimeout(cause, depth + 1);
}

function isFinal(error: unknown, classify?: (error: unknown) => ErrorClass | undefined): boolean {
  if (error instanceof FinalError) return true;
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof FinalError) return true;
  return classify?.(error) === 'final';
}

function isNotSent(error: unknown, classify?: (error: unknown) => ErrorClass | undefined): boolean {
  const said = classify?.(error);
  return said === undefined ? provesNotSent(error) : said === 'not-sent';
}

function codeOf(error: unknown, fallback: string): string {
  if (error instanceof FinalError) return reportable(error.code, REPORT_LIMITS.code, fallback);
  const name = errorLike(error)?.name ?? '';
  return reportable(name && name !== 'Error' ? name : fallback, REPORT_LIMITS.code, fallback);
}

function text(error: unknown): string {
  const e = errorLike(error);
  let raw: string;
  try {
    raw = e ? `${e.name}: ${e.message}` : String(error);
  } catch {
    raw = ''; // an object whose toString throws
  }
  return reportable(raw, REPORT_LIMITS.text, 'job failed');
}

/** An error's name and message, also from another realm (where `instanceof Error` is false). */
function errorLike(error: unknown): { name: string; message: string } | null {
  if (typeof error !== 'object' || error === null) return null;
  const { name, message } = error as { name?: unknown; message?: unknown };
  return typeof name === 'string' && typeof message === 'string' ? { name, message } : null;
}
