import type { AuditEvent, DuplicateClaimPrevented } from './events.js';

/**
 * The duplicates of one audit stream not yet recorded: the first of them (its data is what the
 * coalesced record repeats), how many there were, and when the first and last were answered.
 * `until` (epoch ms) ends the window: duplicates answered before it are counted here, the first
 * one after it is recorded at once and opens the next window. `opener` is the duplicate recorded
 * when the window opened: only duplicates like it (same answer, state, attempt, fingerprint) are
 * counted into the window.
 */
export interface DuplicateWindow {
  readonly until: number;
  readonly opener: DuplicateClaimPrevented | null;
  readonly pending: {
    readonly first: DuplicateClaimPrevented;
    readonly count: number;
    readonly lastAt: string;
  } | null;
}

/**
 * What {@link decideDuplicateAudit} answers: to append now, the counted records of the windows
 * this command ended (`ended`, earlier commands' duplicates) and this command's own audit events
 * that are not counted into the window (`record`); and the window after.
 */
export interface DuplicateAuditDecision {
  readonly ended: readonly DuplicateClaimPrevented[];
  readonly record: readonly AuditEvent[];
  readonly window: DuplicateWindow;
}

/**
 * Coalesces the audit of duplicate claims (docs/domain.md "Audit of duplicate claims"): per audit
 * stream, the first `DuplicateClaimPrevented` of a window of `windowMs` is recorded as decided
 * (count 1, before its answer is given); the ones that follow within the window only add to a
 * count, recorded as ONE `DuplicateClaimPrevented` carrying `count`, `firstAt` and `lastAt` when
 * the window ends ({@link flushDuplicateWindow}). A duplicate with another answer, state, attempt
 * or fingerprint than the pending ones ends their window early (both are recorded), so a record
 * never merges different answers. Every other audit event (`PayloadConflictDetected`) is
 * recorded as decided. `windowMs` 0 records every duplicate on its own, as before coalescing.
 *
 * Pure: `window` is not mutated; `now` is the command's server time (epoch ms).
 */
export function decideDuplicateAudit(
  window: DuplicateWindow | undefined,
  audit: readonly AuditEvent[],
  now: number,
  windowMs: number,
): DuplicateAuditDecision {
  let current = window;
  const record: AuditEvent[] = [];
  const ended: DuplicateClaimPrevented[] = [];
  for (const event of audit) {
    if (event.type !== 'DuplicateClaimPrevented' || windowMs <= 0) {
      record.push(event);
      continue;
    }
    const like = current && (current.pending?.first ?? current.opener);
    if (current && now < current.until && like && sameDuplicate(like, event)) {
      const pending = current.pending;
      current = {
        until: current.until,
        opener: current.opener,
        pending: pending
          ? { first: pending.first, count: pending.count + 1, lastAt: event.data.at }
          : { first: event, count: 1, lastAt: event.data.at },
      };
      continue;
    }
    const flushed = current ? flushDuplicateWindow(current) : null;
    if (flushed) ended.push(flushed);
    record.push(event);
    current = { until: now + windowMs, opener: event, pending: null };
  }
  return { ended, record, window: current ?? { until: now, opener: null, pending: null } };
}

/**
 * The one record of a window's pending duplicates: the first one's data with `count` (how many
 * duplicates it stands for, >= 1), `firstAt` and `lastAt` (their answer times); null when none is
 * pending.
 */
export function flushDuplicateWindow(window: DuplicateWindow): DuplicateClaimPrevented | null {
  const pending = window.pending;
  if (!pending) return null;
  const first = pending.first.data;
  return {
    type: 'DuplicateClaimPrevented',
    data: { ...first, count: pending.count, firstAt: first.at, lastAt: pending.lastAt },
  };
}

/** How many duplicate claims a `DuplicateClaimPrevented` record stands for (1 when it has no count). */
export function duplicateCount(data: { readonly count?: unknown }): number {
  return typeof data.count === 'number' && Number.isInteger(data.count) && data.count >= 1 ? data.count : 1;
}

function sameDuplicate(a: DuplicateClaimPrevented, b: DuplicateClaimPrevented): boolean {
  return (
    a.data.answer === b.data.answer &&
    a.data.state === b.data.state &&
    a.data.attempt === b.data.attempt &&
    a.data.fingerprint === b.data.fingerprint
  );
}
