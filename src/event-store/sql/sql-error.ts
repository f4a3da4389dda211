/** SQLSTATE codes and constraint names the event store reacts to (PostgreSQL Appendix A). */
export const SqlState = {
  uniqueViolation: '23505',
  deadlockDetected: '40P01',
  /** Raised by `ledger_append` for an event id conflict (custom class `LG`). */
  eventIdConflict: 'LG001',
} as const;

export const EVENT_ID_CONSTRAINT = 'ledger_events_event_id_key';
export const STREAM_ID_CONSTRAINT = 'ledger_streams_stream_id_key';

/** The SQLSTATE of a pg or PGlite `DatabaseError`, else undefined. */
export function sqlStateOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The violated constraint's name of a pg or PGlite `DatabaseError`, else undefined. */
export function constraintOf(error: unknown): string | undefined {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}

/** True for a unique violation of `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  return sqlStateOf(error) === SqlState.uniqueViolation && constraintOf(error) === constraint;
}

/** A unique violation or deadlock of a set-based append: `ledger_append` settles it per append. */
export function isSettledAppendByAppend(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === SqlState.uniqueViolation || state === SqlState.deadlockDetected;
}
