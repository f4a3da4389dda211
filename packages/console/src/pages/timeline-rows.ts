import type { HistoryEvent as WireHistoryEvent } from '@operation-ledger/protocol';

/**
 * One event of GET /v1/operations/{id}/history (decision and audit streams, commit order), whose
 * positions the ledger sends as JSON numbers.
 */
export type HistoryEvent = WireHistoryEvent & {
  readonly streamPosition: number;
  readonly globalPosition: number;
};

/** How much of the history the timeline shows. */
export type TimelineView = 'compact' | 'full' | 'decisions';

/**
 * One row of the timeline: a single event, or (compact view) every audit event of one kind
 * grouped — `count` duplicates answered between `firstAt` and `lastAt`. `sincePreviousMs`: time
 * from the previous decision event to this one (claim → step start → step end → outcome).
 */
export interface TimelineRow {
  readonly event: HistoryEvent;
  readonly audit: boolean;
  readonly count: number;
  readonly firstAt: string;
  readonly lastAt: string;
  readonly sincePreviousMs: number | null;
}

const at = (e: HistoryEvent): string => {
  const t = e.data.at;
  return typeof t === 'string' ? t : e.recordedAt;
};

/** How many claims an audit record stands for (a coalesced record carries `count`). */
const countOf = (e: HistoryEvent): number =>
  typeof e.data.count === 'number' && e.data.count > 0 ? e.data.count : 1;

/** Audit events are grouped by type and what was answered (a replay and an in-progress refusal differ). */
const groupKey = (e: HistoryEvent) => `${e.type}/${typeof e.data.answer === 'string' ? e.data.answer : ''}`;

/**
 * The rows of a merged history for `view`: `full`, `decisions` only, or `compact` (each kind of
 * audit event once, at its first place, with its count and times). Pure.
 */
export function timelineRows(
  events: readonly HistoryEvent[],
  decisionStream: string,
  view: TimelineView,
): TimelineRow[] {
  const rows: TimelineRow[] = [];
  const groups = new Map<string, number>();
  let previousDecision: number | null = null;
  for (const e of events) {
    const audit = e.streamName !== decisionStream;
    const t = at(e);
    if (audit && view === 'decisions') continue;
    if (audit && view === 'compact') {
      const index = groups.get(groupKey(e));
      if (index !== undefined) {
        const g = rows[index]!;
        const first = typeof e.data.firstAt === 'string' ? e.data.firstAt : t;
        const last = typeof e.data.lastAt === 'string' ? e.data.lastAt : t;
        rows[index] = {
          ...g,
          count: g.count + countOf(e),
          firstAt: first < g.firstAt ? first : g.firstAt,
          lastAt: last > g.lastAt ? last : g.lastAt,
        };
        continue;
      }
      groups.set(groupKey(e), rows.length);
    }
    const ms = Date.parse(t);
    rows.push({
      event: e,
      audit,
      count: countOf(e),
      firstAt: typeof e.data.firstAt === 'string' ? e.data.firstAt : t,
      lastAt: typeof e.data.lastAt === 'string' ? e.data.lastAt : t,
      sincePreviousMs: audit || previousDecision === null ? null : ms - previousDecision,
    });
    if (!audit) previousDecision = ms;
  }
  return rows;
}

/** A duration in ms for the timeline: `+850 ms`, `+4.2 s`, `+3 min 5 s`, `+2 h 1 min`. */
export function durationText(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `+${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `+${(ms / 1000).toFixed(1)} s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `+${Math.floor(s / 60)} min ${s % 60} s`;
  return `+${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
