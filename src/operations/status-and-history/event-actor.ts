import type { EventActor } from '@operation-ledger/protocol';
import type { RecordedEvent } from '../../event-store/event-store.port.js';

/** Who caused one event (the protocol's `EventActor`). */
export type { EventActor };

/**
 * Events the holder's requests cause (the worker id is that of the attempt's claim). Audit events
 * are not among them: a refused duplicate claim names its own worker id, if it sent one.
 */
const WORKER_EVENTS = new Set([
  'OperationClaimed',
  'ApprovalRequested',
  'StepStarted',
  'StepCompleted',
  'StepNotPerformed',
  'OperationConfirmed',
  'OperationFailed',
  'OperationReleased',
  'OutcomeUnknown',
  'LeaseRenewed',
  'DuplicateEffectDetected',
]);

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The actor of each event of one operation's merged history (commit order), derived on read so
 * events whose metadata lacks `keyName`/`job` read the same; `keyNames` maps key ids to names.
 */
export function eventActors(
  events: readonly RecordedEvent[],
  keyNames: ReadonlyMap<string, string>,
): EventActor[] {
  const workerOfAttempt = new Map<number, string | null>();
  return events.map((e) => {
    const d = e.data;
    const m = (e.metadata ?? {}) as Record<string, unknown>;
    if (e.type === 'OperationClaimed' || e.type === 'ApprovalRequested')
      workerOfAttempt.set(Number(d.attempt), str(d.workerId));
    const keyId = str(m.keyId);
    const job = str(m.job) ?? (keyId === null && bySweeper(d) ? 'sweeper' : null);
    const known = keyId ? keyNames.get(keyId) : undefined;
    const keyName = str(m.keyName) ?? known ?? str(d.actor);
    const byWorker = job === null && WORKER_EVENTS.has(e.type) && !bySweeper(d);
    const attempt = Number(d.reportedByAttempt ?? d.attempt);
    const workerId = str(d.workerId) ?? (byWorker ? (workerOfAttempt.get(attempt) ?? null) : null);
    const who = keyName ?? job ?? (keyId ? `key ${keyId}` : '—');
    return { label: workerId ? `${who} (${workerId})` : who, keyName, keyId, workerId, job };
  });
}

function bySweeper(d: Record<string, unknown>): boolean {
  return d.releasedBy === 'sweeper' || d.reason === 'lease_expired';
}

/** Key ids in the metadata of `events` that carry no `keyName` (recorded before it was written). */
export function unnamedKeyIds(events: readonly RecordedEvent[]): string[] {
  const ids = new Set<string>();
  for (const e of events) {
    const m = (e.metadata ?? {}) as Record<string, unknown>;
    const id = str(m.keyId);
    if (id && !str(m.keyName)) ids.add(id);
  }
  return [...ids];
}
