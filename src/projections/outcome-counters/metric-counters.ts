import type { RecordedEvent } from '../../event-store/event-store.port.js';
import { duplicateCount } from '../../ledger/index.js';

/** The duplicate-prevented counters, as metrics read model columns (moved by {@link countersOf}). */
export const COUNTERS = [
  'claims',
  'duplicate_claims_prevented',
  'replays',
  'in_progress_refusals',
  'awaiting_recovery_refusals',
  'payload_conflicts',
  'unknown_opened',
  'unknown_resolved',
  'duplicate_effects',
] as const;

export type CounterName = (typeof COUNTERS)[number];
export type Counters = Record<CounterName, number>;

/** All counters at zero. */
export function zeroCounters(): Counters {
  return Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Counters;
}

const ANSWER_COUNTER: Record<string, CounterName> = {
  replayed: 'replays',
  in_progress: 'in_progress_refusals',
  awaiting_recovery: 'awaiting_recovery_refusals',
};

/**
 * How much one event adds to its counters: a coalesced `DuplicateClaimPrevented` its `count`
 * (docs/domain.md "Audit of duplicate claims"), any other event one.
 */
export function weightOf(event: RecordedEvent): number {
  return event.type === 'DuplicateClaimPrevented' ? duplicateCount(event.data as { count?: unknown }) : 1;
}

/** The counters one event increments (by {@link weightOf} each); `[]` for events that count nothing. */
export function countersOf(event: RecordedEvent): CounterName[] {
  const d = event.data as Record<string, unknown>;
  switch (event.type) {
    case 'OperationClaimed':
      return ['claims'];
    case 'DuplicateClaimPrevented': {
      const specific = ANSWER_COUNTER[String(d.answer)];
      return specific ? ['duplicate_claims_prevented', specific] : ['duplicate_claims_prevented'];
    }
    case 'PayloadConflictDetected':
      return ['payload_conflicts'];
    case 'OutcomeUnknown':
      return ['unknown_opened'];
    case 'OperationResolved':
      return ['unknown_resolved'];
    case 'RecoveryEvidenceSubmitted':
      return d.verdict === 'found' || d.verdict === 'not_found' ? ['unknown_resolved'] : [];
    case 'OperationConfirmed':
      return d.source === 'late_confirmation' ? ['unknown_resolved'] : [];
    case 'DuplicateEffectDetected':
      return ['duplicate_effects'];
    default:
      return [];
  }
}

/** camelCase name of a counter for JSON answers (`duplicate_claims_prevented` → `duplicateClaimsPrevented`). */
export function camel(counter: string): string {
  return counter.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** Each counter with its camelCase name, worked out once (the projector presents buckets per batch). */
const PRESENTED: readonly (readonly [string, string])[] = COUNTERS.map((c) => [c, camel(c)]);

/** Counters keyed in camelCase, for JSON answers. */
export function presentCounters(counters: Partial<Record<string, unknown>>): Record<string, number> {
  const presented: Record<string, number> = {};
  for (const [counter, name] of PRESENTED) presented[name] = Number(counters[counter] ?? 0);
  return presented;
}
