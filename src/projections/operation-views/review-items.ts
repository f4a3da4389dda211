import type { ReviewReason } from '@operation-ledger/protocol';
import { unknownCauseOf } from '../../ledger/index.js';
import type { OperationFold } from './operation-fold.js';

const EPOCH = new Date(0).toISOString();

/** Why an operation waits for a human. */
export type { ReviewReason };

/** One entry of the review queue (one per operation and reason). Times ISO 8601 UTC. */
export interface ReviewItem {
  readonly reason: ReviewReason;
  /** When the operation entered the queue for this reason (age = now − since). */
  readonly since: string;
  readonly detail: Record<string, unknown>;
}

/**
 * The review-queue entries an operation's fold calls for, in a fixed order: `unknown_outcome`,
 * `final_failure` (not retryable), `duplicate_effect` (not yet acknowledged), `awaiting_approval`.
 */
export function reviewItems(fold: OperationFold): ReviewItem[] {
  const s = fold.state;
  const items: ReviewItem[] = [];
  const steps = Object.values(s.steps);
  if (s.status === 'unknown' && s.unknown) {
    const attempt = s.unknown.attempt;
    items.push({
      reason: 'unknown_outcome',
      since: s.unknown.at,
      detail: {
        unknownReason: s.unknown.reason,
        unknownCause: unknownCauseOf(s.unknown),
        unknownDetail: fold.unknownDetail ?? null,
        lastError: s.lastError,
        attempt,
        startedSteps: steps
          .filter((step) => step.status === 'started' && step.attempt === attempt)
          .map((step) => ({
            step: step.name,
            providerIdempotencyKey: step.providerIdempotencyKey,
            startedAt: step.startedAt,
          })),
        steps: steps.map((step) => ({
          step: step.name,
          status: step.status,
          attempt: step.attempt,
          providerIdempotencyKey: step.providerIdempotencyKey,
        })),
        lastEvidence: (s as { lastEvidence?: unknown }).lastEvidence ?? null,
        leaseHistory: fold.leases,
      },
    });
  }
  if (s.status === 'failed' && s.retryable === false) {
    items.push({
      reason: 'final_failure',
      since: fold.failedAt ?? s.updatedAt ?? EPOCH,
      detail: { attempt: s.attempt, error: s.lastError, leaseHistory: fold.leases },
    });
  }
  const open = s.duplicateEffects.filter((d) => (d as { acknowledged?: boolean }).acknowledged !== true);
  if (open.length > 0) {
    items.push({
      reason: 'duplicate_effect',
      since: open[0]!.at,
      detail: {
        recordedRef: s.confirmation?.destinationRef ?? null,
        duplicates: open.map((d) => ({ ref: d.ref, at: d.at, attempt: d.attempt })),
      },
    });
  }
  if ((s.status as string) === 'awaiting_approval') {
    items.push({
      reason: 'awaiting_approval',
      since: s.createdAt ?? s.updatedAt ?? EPOCH,
      detail: { attempt: s.attempt },
    });
  }
  return items;
}
