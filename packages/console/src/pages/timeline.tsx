import { useState } from 'preact/hooks';
import { DataTable, type Column } from '../components/data-table.js';
import { text, when } from '../format.js';
import {
  durationText,
  timelineRows,
  type HistoryEvent,
  type TimelineRow,
  type TimelineView,
} from './timeline-rows.js';

/**
 * Who caused an event: the ledger's actor label (key name, plus the worker id where a worker
 * acted); from an older ledger, the operator, else the worker, else the API key id.
 */
export function who(e: HistoryEvent): string {
  if (e.actor?.label) return e.actor.label;
  const d = e.data;
  if (typeof d.actor === 'string') return d.actor;
  if (typeof d.workerId === 'string') return `worker ${d.workerId}`;
  if (d.releasedBy === 'sweeper' || d.reason === 'lease_expired') return 'lease sweeper';
  return typeof e.metadata.keyId === 'string' ? `key ${e.metadata.keyId}` : '—';
}

/** The why of an event: the operator's reason, the error, the answer given, the step. */
export function why(e: HistoryEvent): string {
  const d = e.data;
  const parts: string[] = [];
  if (typeof d.step === 'string') parts.push(`step ${d.step}`);
  if (typeof d.providerIdempotencyKey === 'string') parts.push(`provider key ${d.providerIdempotencyKey}`);
  if (typeof d.resolution === 'string') parts.push(`resolution ${d.resolution}`);
  if (typeof d.verdict === 'string') parts.push(`verdict ${d.verdict}`);
  if (e.type === 'OutcomeUnknown') parts.push(unknownCause(d));
  else if (typeof d.reason === 'string') parts.push(d.reason);
  if (typeof d.detail === 'string') parts.push(d.detail);
  if (typeof d.note === 'string') parts.push(d.note);
  if (d.error && typeof d.error === 'object') parts.push(text(d.error));
  if (typeof d.destinationRef === 'string') parts.push(`ref ${d.destinationRef}`);
  if (typeof d.incomingRef === 'string') parts.push(`second ref ${d.incomingRef}`);
  if (typeof d.answer === 'string') parts.push(`answered ${d.answer}`);
  if (typeof d.incomingFingerprint === 'string')
    parts.push(`fingerprint ${d.incomingFingerprint.slice(0, 12)}…`);
  return parts.join(' · ');
}

/** The true label of an OutcomeUnknown (derived for events recorded before `cause` existed). */
export function unknownCause(d: Record<string, unknown>): string {
  if (typeof d.cause === 'string') return d.cause;
  return d.reason === 'lease_expired' ? 'lease_expired_after_step' : 'reported_by_worker';
}

const VIEWS: readonly (readonly [TimelineView, string])[] = [
  ['compact', 'Compact'],
  ['full', 'Full history'],
  ['decisions', 'Decisions only'],
];

/**
 * The merged timeline: each event with its stream revision (or `audit`), time, the time since the
 * previous decision, type, who, attempt and reason. Compact (default) groups repeated audit events
 * ("DuplicateClaimPrevented ×19, first … last …"); full shows each; decisions-only hides the audit
 * stream. Events after `cutoff` (time travel) are shown faded; events after `newAfter` (just
 * caused by an action here) are marked new.
 */
export function Timeline(props: {
  events: readonly HistoryEvent[];
  /** Global position of the event the time travel stops at (later ones are faded), or null. */
  cutoff: number | null;
  newAfter: number | null;
  auditStream: string;
}) {
  const { cutoff, newAfter, auditStream } = props;
  const [view, setView] = useState<TimelineView>('compact');
  const decisionStream = props.events.find((e) => e.streamName !== auditStream)?.streamName ?? '';
  const rows = timelineRows(props.events, decisionStream, view);
  const columns: Column<TimelineRow>[] = [
    {
      id: 'rev',
      header: 'Rev',
      cell: (r) =>
        r.audit ? (
          <span class="tag">audit</span>
        ) : (
          <span class="tag tag-decision">{r.event.streamPosition}</span>
        ),
    },
    {
      id: 'when',
      header: 'When',
      cell: (r) =>
        r.count > 1 ? (
          <span>
            first {when(r.firstAt)}
            <br />
            last {when(r.lastAt)}
          </span>
        ) : (
          when(r.event.data.at ?? r.event.recordedAt)
        ),
    },
    {
      id: 'took',
      header: 'Took',
      cell: (r) => <span data-testid="duration">{durationText(r.sincePreviousMs)}</span>,
    },
    {
      id: 'type',
      header: 'Event',
      cell: ({ event: e, count }) => (
        <span class={eventClass(e, cutoff, newAfter)} data-testid="timeline-event">
          {e.type}
          {count > 1 ? <strong data-testid="group-count"> ×{count}</strong> : null}
          {newAfter !== null && e.globalPosition > newAfter ? <em class="new"> new</em> : null}
        </span>
      ),
    },
    { id: 'who', header: 'Who', cell: (r) => who(r.event) },
    { id: 'attempt', header: 'Attempt', cell: (r) => text(r.event.data.attempt ?? '') },
    { id: 'why', header: 'Reason / detail', cell: (r) => why(r.event) },
  ];
  return (
    <>
      <div class="view-toggle" role="group" aria-label="Timeline view" data-testid="timeline-view">
        {VIEWS.map(([v, label]) => (
          <button
            type="button"
            key={v}
            class={v === view ? 'selected' : ''}
            aria-pressed={v === view}
            onClick={() => setView(v)}
            data-testid={`view-${v}`}
          >
            {label}
          </button>
        ))}
      </div>
      <DataTable
        columns={columns}
        rows={rows}
        rowId={(r) => String(r.event.globalPosition)}
        empty="No events."
        testId="timeline"
      />
    </>
  );
}

function eventClass(e: HistoryEvent, cutoff: number | null, newAfter: number | null): string {
  const future = cutoff !== null && e.globalPosition > cutoff;
  return [future ? 'future' : '', newAfter !== null && e.globalPosition > newAfter ? 'fresh' : '']
    .join(' ')
    .trim();
}
