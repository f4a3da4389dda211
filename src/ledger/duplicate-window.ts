import type { AuditEvent, DuplicateClaimPrevented } from './events.js';

/**
 * The duplicates of one audit stream not yet recorded. `until` (epoch ms) ends the window;
 * `opener`, the duplicate recorded when it opened: only duplicates like it are counted in.
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

/** What to append now (`ended` windows' records, this command's own `record`) and the window after. */
export interface DuplicateAuditDecision {
  readonly ended: readonly DuplicateClaimPrevented[];
  readonly record: readonly AuditEvent[];
  readonly window: DuplicateWindow;
}

/**
 * Coalesces the audit of duplicate claims (docs/domain.md "Audit of duplicate claims"): the first
 * of a window is recorded at once, the rest as ONE counted record when it ends. A different
 * duplicate ends the window early, so a record never merges different answers.
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

/** The one record of a window's pending duplicates (the first's data with `count`), or null. */
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
