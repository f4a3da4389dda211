import {
  type AppendRequest,
  type BatchAppendOutcome,
  NO_STREAM,
  wrongExpectedVersion,
} from '../event-store.port.js';
import type { SqlExecutor } from '../sql-executor.js';
import { appendBatchAlone } from './append-alone.js';
import { encodeEvents } from './append-encoding.js';
import { isSettledAppendByAppend } from './sql-error.js';
import { APPEND_ANY, type AppendAnyRow } from './statements/append-any.js';
import { toStoreError } from './store-error.js';

/** `any` appends to one stream under one condition, merged in request order. */
interface MergedAnyAppend {
  readonly stream: string;
  readonly onlyIf: AppendRequest['onlyIf'];
  readonly events: unknown[];
  /** Where each request's events are in `events`. */
  readonly parts: { readonly index: number; readonly offset: number; readonly count: number }[];
}

/**
 * An `appendBatch` of `any` appends as `ledger_append_any` calls; requests for the same stream
 * under the same `onlyIf` are merged and split back.
 *
 * After a unique violation or deadlock, a batch without conditions (one call, so nothing was
 * written) is replayed through `ledger_append_batch`; with conditions, which that cannot check,
 * each request is retried in a call of its own.
 * @throws the executor's errors (EventStoreUnavailableError …), EventIdConflictError.
 */
export async function appendAnyTogether(
  sql: SqlExecutor,
  requests: readonly AppendRequest[],
  written: () => void,
): Promise<BatchAppendOutcome[]> {
  const conditional = requests.some((r) => r.onlyIf);
  const outcomes = new Array<BatchAppendOutcome>(requests.length);
  for (const round of anyAppendRounds(requests)) {
    let wrote: boolean;
    try {
      wrote = await appendAnyRound(sql, round, outcomes);
    } catch (error) {
      if (!isSettledAppendByAppend(error)) throw toStoreError(requests[0]!.streamName, error);
      if (!conditional) {
        const replayed = await appendBatchAlone(sql, requests);
        if (replayed.some((o) => o.ok && !o.deduplicated)) written();
        return replayed;
      }
      wrote = false;
      for (const merged of round) {
        const alone = await appendAnyRound(sql, [merged], outcomes).catch((failure: unknown) => {
          throw toStoreError(merged.stream, failure);
        });
        wrote ||= alone;
      }
    }
    if (wrote) written();
  }
  return outcomes;
}

/** One `ledger_append_any` call for `round`; fills `outcomes`; true when anything was written. */
async function appendAnyRound(
  sql: SqlExecutor,
  round: readonly MergedAnyAppend[],
  outcomes: BatchAppendOutcome[],
): Promise<boolean> {
  const { rows } = await sql.queryPrepared<AppendAnyRow>(APPEND_ANY.name, APPEND_ANY.text, [
    JSON.stringify(
      round.map((m) => ({
        stream: m.stream,
        events: m.events,
        onlyIf: m.onlyIf && { stream: m.onlyIf.streamName, revision: m.onlyIf.revision.toString() },
      })),
    ),
  ]);
  if (rows.length !== round.length) throw new Error(`Expected ${round.length} rows, got ${rows.length}`);
  let written = false;
  round.forEach((merged, i) => {
    const row = rows[i]!;
    if (row.next_revision === null || row.first_global === null) {
      const { streamName, revision } = merged.onlyIf!;
      const actual = row.condition_actual === null ? NO_STREAM : BigInt(row.condition_actual);
      for (const part of merged.parts) {
        outcomes[part.index] = { ok: false, error: wrongExpectedVersion(streamName, revision, actual) };
      }
      return;
    }
    written = true;
    const firstRevision = BigInt(row.next_revision) - BigInt(merged.events.length) + 1n;
    const firstGlobal = BigInt(row.first_global);
    for (const part of merged.parts) {
      outcomes[part.index] = {
        ok: true,
        nextExpectedRevision: firstRevision + BigInt(part.offset + part.count - 1),
        firstGlobalPosition: firstGlobal + BigInt(part.offset),
        lastGlobalPosition: firstGlobal + BigInt(part.offset + part.count - 1),
        deduplicated: false,
      };
    }
  });
  return written;
}

/** Splits `any` appends into rounds that each name a stream once. */
function anyAppendRounds(requests: readonly AppendRequest[]): MergedAnyAppend[][] {
  const rounds: Map<string, MergedAnyAppend>[] = [];
  requests.forEach((request, index) => {
    const encoded = encodeEvents(request.streamName, request.events);
    const condition = conditionKey(request.onlyIf);
    let round = rounds.find((r) => {
      const there = r.get(request.streamName);
      return there === undefined || conditionKey(there.onlyIf) === condition;
    });
    if (!round) rounds.push((round = new Map()));
    let merged = round.get(request.streamName);
    if (!merged) {
      merged = { stream: request.streamName, onlyIf: request.onlyIf, events: [], parts: [] };
      round.set(request.streamName, merged);
    }
    merged.parts.push({ index, offset: merged.events.length, count: encoded.length });
    merged.events.push(...encoded);
  });
  return rounds.map((r) => [...r.values()]);
}

function conditionKey(onlyIf: AppendRequest['onlyIf']): string {
  return onlyIf ? `${onlyIf.streamName}@${onlyIf.revision}` : '';
}
