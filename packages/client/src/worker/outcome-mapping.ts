import { FinalError } from '../errors.js';

/** How a job error is classified by the caller (`classifyError` option). */
export type ErrorClass = 'final' | 'retryable';

/** What the SDK tells the ledger after a job threw. */
export type JobReport =
  | { readonly kind: 'fail'; readonly retryable: boolean; readonly code: string; readonly message: string }
  | { readonly kind: 'unknown'; readonly reason: string }
  | { readonly kind: 'release'; readonly reason: string };

/** What the mapping needs to know about the attempt. */
export interface FailedAttempt {
  readonly error: unknown;
  /** Steps started in THIS attempt (a step completed by an earlier attempt does not count). */
  readonly startedSteps: number;
  /** The caller's `signal` aborted (shutdown): give the operation back when that is safe. */
  readonly cancelled: boolean;
  readonly classifyError?: (error: unknown) => ErrorClass | undefined;
}

const MAX_TEXT = 4096;

/**
 * The outcome-mapping rule (package README, "Outcome mapping"):
 * - no step started in this attempt: cancelled → release; final (`FinalError` or the classifier
 *   says so) → final failure; anything else → retryable failure;
 * - a step started: final → final failure (the caller asserts nothing happened or will); anything
 *   else, a timeout included → **unknown**, never a retryable failure, because the effect may
 *   have happened (the ledger refuses a retryable failure then: 409 `outcome-uncertain`).
 * Pure.
 */
export function reportFor(attempt: FailedAttempt): JobReport {
  const final = isFinal(attempt.error, attempt.classifyError);
  const message = text(attempt.error);
  if (final) return { kind: 'fail', retryable: false, code: codeOf(attempt.error, 'final'), message };
  if (attempt.startedSteps > 0) return { kind: 'unknown', reason: message };
  if (attempt.cancelled) return { kind: 'release', reason: `cancelled before any step started: ${message}` };
  return { kind: 'fail', retryable: true, code: codeOf(attempt.error, 'job-error'), message };
}

function isFinal(error: unknown, classify?: (error: unknown) => ErrorClass | undefined): boolean {
  if (error instanceof FinalError) return true;
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof FinalError) return true;
  return classify?.(error) === 'final';
}

function codeOf(error: unknown, fallback: string): string {
  if (error instanceof FinalError) return error.code.slice(0, 256) || fallback;
  const name = error instanceof Error ? error.name : '';
  return (name && name !== 'Error' ? name : fallback).slice(0, 256);
}

function text(error: unknown): string {
  const raw = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return (raw.trim() || 'job failed').slice(0, MAX_TEXT);
}
