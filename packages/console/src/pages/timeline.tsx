import { DataTable, type Column } from '../components/data-table.js';
import { text, when } from '../format.js';

/** One event of GET /v1/operations/{id}/history (decision and audit streams, commit order). */
export interface HistoryEvent {
  readonly type: string;
  readonly streamName: string;
  readonly streamPosition: number;
  readonly globalPosition: number;
  readonly recordedAt: string;
  readonly data: Record<string, unknown>;
  readonly metadata: Record<string, unknown>;
}

/** Who caused an event: the operator (actor), else the worker, else the API key id. */
export function who(e: HistoryEvent): string {
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
  if (typeof d.reason === 'string') parts.push(d.reason);
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

/**
 * The merged timeline: each event with position, time, stream (decision or audit), type, who,
 * attempt and reason. Events after `cutoff` (time travel) are shown faded; events
 * after `newAfter` (just caused by an action here) are marked new.
 */
export function Timeline(props: {
  events: readonly HistoryEvent[];
  /** Global position of the event the time travel stops at (later ones are faded), or null. */
  cutoff: number | null;
  newAfter: number | null;
  auditStream: string;
}) {
  const { cutoff, newAfter, auditStream } = props;
  const columns: Column<HistoryEvent>[] = [
    { id: 'pos', header: '#', cell: (e) => e.globalPosition },
    { id: 'when', header: 'When', cell: (e) => when(e.data.at ?? e.recordedAt) },
    {
      id: 'stream',
      header: 'Stream',
      cell: (e) =>
        e.streamName === auditStream ? (
          <span class="tag">audit</span>
        ) : (
          <span class="tag tag-decision">rev {e.streamPosition}</span>
        ),
    },
    {
      id: 'type',
      header: 'Event',
      cell: (e) => (
        <span class={eventClass(e, cutoff, newAfter)} data-testid="timeline-event">
          {e.type}
          {newAfter !== null && e.globalPosition > newAfter ? <em class="new"> new</em> : null}
        </span>
      ),
    },
    { id: 'who', header: 'Who', cell: who },
    { id: 'attempt', header: 'Attempt', cell: (e) => text(e.data.attempt ?? '') },
    { id: 'why', header: 'Reason / detail', cell: why },
  ];
  return (
    <DataTable
      columns={columns}
      rows={props.events}
      rowId={(e) => String(e.globalPosition)}
      empty="No events."
      testId="timeline"
    />
  );
}

function eventClass(e: HistoryEvent, cutoff: number | null, newAfter: number | null): string {
  const future = cutoff !== null && e.globalPosition > cutoff;
  return [future ? 'future' : '', newAfter !== null && e.globalPosition > newAfter ? 'fresh' : '']
    .join(' ')
    .trim();
}
