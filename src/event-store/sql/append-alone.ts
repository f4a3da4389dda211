import type {
  AppendRequest,
  AppendResult,
  BatchAppendOutcome,
  ExpectedRevision,
} from '../event-store.port.js';
import type { SqlExecutor } from '../sql-executor.js';
import { encodeEvents, encodeExpectedRevision } from './append-encoding.js';
import { type AppendRow, toAppendOutcome } from './append-row.js';
import { EVENT_ID_CONSTRAINT, isUniqueViolation } from './sql-error.js';
import { APPEND_BATCH } from './statements/append-batch.js';
import { APPEND } from './statements/append.js';
import { toStoreError } from './store-error.js';

/** One append as `ledger_append` takes it: events already encoded (`encodeEvents`). */
export interface AloneAppend {
  readonly streamName: string;
  readonly expectedRevision: ExpectedRevision;
  readonly encoded: unknown[];
  /** The stream's UUID alias, or null. */
  readonly streamId: string | null;
}

/** Outcome of one append of a batch: the result, or the error that append alone raises. */
export type SettledAppend =
  { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly error: unknown };

/*
 * The per-append path: `ledger_append` settles what the set-based statements leave open
 * (idempotent retries, event id conflicts); a group-committed batch that failed with a unique
 * violation or a deadlock is replayed here append by append.
 */

/**
 * One append through `ledger_append`, one round trip.
 * @throws WrongExpectedVersionError (with the stream's events), EventIdConflictError, the
 *   executor's errors (EventStoreUnavailableError …).
 */
export async function appendAlone(sql: SqlExecutor, append: AloneAppend): Promise<AppendResult> {
  const { streamName, expectedRevision } = append;
  const params = [
    streamName,
    encodeExpectedRevision(expectedRevision),
    JSON.stringify(append.encoded),
    append.streamId,
  ];
  const { rows } = await withEventIdRaceRetry(streamName, () =>
    sql.queryPrepared<AppendRow>(APPEND.name, APPEND.text, params),
  );
  if (rows.length !== 1) throw new Error(`Expected one row from ledger_append, got ${rows.length}`);
  const outcome = toAppendOutcome(streamName, expectedRevision, rows[0]!);
  if (!outcome.ok) throw outcome.error;
  const { ok: _ok, ...result } = outcome;
  return result;
}

/** Each of `appends` alone through {@link appendAlone}, concurrently, each with its own outcome. */
export function settleEachAlone(sql: SqlExecutor, appends: readonly AloneAppend[]): Promise<SettledAppend[]> {
  return Promise.all(
    appends.map((append) =>
      appendAlone(sql, append).then(
        (result): SettledAppend => ({ ok: true, result }),
        (error: unknown): SettledAppend => ({ ok: false, error }),
      ),
    ),
  );
}

/**
 * `requests` in one transaction through `ledger_append_batch` (each as `ledger_append` alone, in
 * stream-name order), one outcome per request in request order; a refused expected revision is
 * that request's outcome.
 * @throws EventIdConflictError (fails the whole batch), TypeError/RangeError for malformed
 *   requests, the executor's errors.
 */
export async function appendBatchAlone(
  sql: SqlExecutor,
  requests: readonly AppendRequest[],
): Promise<BatchAppendOutcome[]> {
  const payload = requests.map((request) => ({
    stream: request.streamName,
    expected: encodeExpectedRevision(request.expectedRevision),
    events: encodeEvents(request.streamName, request.events),
  }));
  const { rows } = await withEventIdRaceRetry(requests[0]!.streamName, () =>
    sql.query<AppendRow & { request_index: number }>(APPEND_BATCH.text, [JSON.stringify(payload)]),
  );
  const outcomes = new Array<BatchAppendOutcome>(requests.length);
  for (const row of rows) {
    const index = Number(row.request_index);
    const request = requests[index]!;
    outcomes[index] = toAppendOutcome(request.streamName, request.expectedRevision, row);
  }
  return outcomes;
}

/** Once more after a unique violation on an event id: a concurrent append inserted it first. */
async function withEventIdRaceRetry<T>(streamName: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isUniqueViolation(error, EVENT_ID_CONSTRAINT)) throw toStoreError(streamName, error);
  }
  try {
    return await call();
  } catch (error) {
    throw toStoreError(streamName, error);
  }
}
