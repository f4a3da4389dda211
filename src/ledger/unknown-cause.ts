/**
 * The true label of an Unknown outcome, finer than the recorded `reason` (kept as it was for
 * readers of the event):
 * - `reported_by_worker`: the worker reported it, for a reason of its own (its text is `detail`);
 * - `reported_timeout`: the worker reported it and said it timed out (the SDK knows when);
 * - `lease_expired_after_step`: nobody reported; the lease expired over a started step.
 */
export type UnknownCause = 'reported_by_worker' | 'reported_timeout' | 'lease_expired_after_step';

/**
 * The cause of an OutcomeUnknown event: its `cause`, or for events recorded before that field
 * (streams are never rewritten) derived from `reason`. Pure.
 */
export function unknownCauseOf(data: {
  /** The event's `UnknownReason` (`reported_timeout` | `lease_expired`). */
  readonly reason: string;
  readonly cause?: UnknownCause;
}): UnknownCause {
  if (data.cause) return data.cause;
  return data.reason === 'lease_expired' ? 'lease_expired_after_step' : 'reported_by_worker';
}
