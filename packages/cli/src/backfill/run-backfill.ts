import {
  canonicalKey,
  InProgressError,
  LedgerRequestError,
  MAX_BATCH_CLAIMS,
  PayloadConflictError,
  sleep,
  type AcquiredClaim,
  type ClaimRequest,
  type LedgerClient,
  type OperationKey,
} from '@operation-ledger/client';
import { keyOf, payloadOf, type KeyTemplate } from './key-template.js';
import { readRecords, type InputFormat } from './records.js';
import type { LineResult, ResultsFile } from './results.js';

/** What `backfill` reads and how it claims. */
export interface BackfillPlan {
  readonly input: string;
  readonly format: InputFormat;
  readonly tenant: string;
  readonly source: string;
  readonly action: string;
  readonly template: KeyTemplate;
  readonly payloadFields?: readonly string[];
  /** Record field holding the destination's reference, recorded by the confirm. */
  readonly refField?: string;
  /** Claims per `POST /v1/claims/batch`, 1–500. */
  readonly chunkSize: number;
  /** Confirms in flight at once. */
  readonly concurrency: number;
  /** Lease of each claim, ms: how long a re-run may take over an interrupted run's claims. */
  readonly leaseMs: number;
  readonly workerId: string;
}

/** Counts of a run, by line status. */
export interface BackfillSummary {
  lines: number;
  acquired: number;
  /** Of `acquired`: claims an interrupted earlier run made, confirmed by this run. */
  resumed: number;
  replayed: number;
  conflicts: number;
  inProgress: number;
  refused: number;
  interrupted: boolean;
}

interface Item {
  readonly line: number;
  readonly key: Required<OperationKey>;
  readonly keyText: string;
  readonly request: ClaimRequest;
  readonly ref?: string;
}

const TRANSIENT = new Set([429, 503]);

/** Where a chunk's line results go as they end. */
interface LineSink {
  push(result: LineResult): void;
}

/**
 * Records operations that already happened (docs/operating.md "Backfill"): each line claimed in
 * batches and confirmed at once, so later runs of the automation replay. Safe to re-run within
 * `leaseMs`: an interrupted line is confirmed with the fencing token the ledger reports.
 * @throws LedgerUnavailableError when a batch cannot be sent (the results so far are written).
 */
export async function runBackfill(
  client: LedgerClient,
  plan: BackfillPlan,
  results: ResultsFile,
  onProgress: (lines: number) => void,
  signal?: AbortSignal,
): Promise<BackfillSummary> {
  const finished = () => onProgress(1);
  const summary: BackfillSummary = {
    lines: 0,
    acquired: 0,
    resumed: 0,
    replayed: 0,
    conflicts: 0,
    inProgress: 0,
    refused: 0,
    interrupted: false,
  };
  const chunkSize = Math.min(MAX_BATCH_CLAIMS, Math.max(1, plan.chunkSize));
  let chunk: Item[] = [];
  let invalid: LineResult[] = [];
  const record = (r: LineResult) => {
    summary[countOf(r.status)]++;
    if (r.operationId && r.status === 'acquired' && r.detail === 'resumed') summary.resumed++;
  };
  const flush = async () => {
    let out = invalid;
    invalid = [];
    out.forEach(finished);
    if (chunk.length > 0) {
      const { done, deferred } = await claimChunk(client, plan, chunk, finished, signal);
      out = [...out, ...done];
      chunk = deferred;
    }
    out.forEach(record);
    await results.write(out);
  };
  try {
    for await (const input of readRecords(plan.input, plan.format, signal)) {
      summary.lines++;
      const item = input.record ? itemOf(plan, input.line, input.record) : { error: input.error! };
      if ('error' in item)
        invalid.push(line(input.line, null, 'invalid', null, null, 'invalid-line', item.error));
      else chunk.push(item);
      if (chunk.length >= chunkSize || invalid.length >= chunkSize) await flush();
    }
    while (chunk.length > 0 || invalid.length > 0) await flush();
  } catch (err) {
    if (!signal?.aborted) throw err;
    summary.interrupted = true;
  }
  return summary;
}

function countOf(
  status: LineResult['status'],
): Exclude<keyof BackfillSummary, 'lines' | 'resumed' | 'interrupted'> {
  if (status === 'acquired' || status === 'replayed') return status;
  if (status === 'conflict') return 'conflicts';
  if (status === 'in_progress') return 'inProgress';
  return 'refused';
}

function line(
  n: number,
  key: string | null,
  status: LineResult['status'],
  operationId: string | null,
  answer: number | null,
  code: string | null,
  detail: string | null,
  state: string | null = null,
): LineResult {
  return { line: n, key, status, operationId, answer, code, state, detail };
}

function itemOf(plan: BackfillPlan, n: number, rec: Record<string, unknown>): Item | { error: string } {
  const built = keyOf(plan.template, { tenant: plan.tenant, source: plan.source, action: plan.action }, rec);
  if ('error' in built) return built;
  const ref = plan.refField === undefined ? undefined : rec[plan.refField];
  if (plan.refField !== undefined && (ref === undefined || ref === null || ref === ''))
    return { error: `field ${plan.refField} (--ref-field) is missing` };
  const request: ClaimRequest = {
    key: built.key,
    payload: payloadOf(rec, plan.payloadFields),
    leaseMs: plan.leaseMs,
    workerId: plan.workerId,
  };
  return {
    line: n,
    key: built.key,
    keyText: canonicalKey(built.key),
    request,
    ref: ref === undefined ? undefined : String(ref),
  };
}

/**
 * Claims one chunk (retrying 429/503 slots), then confirms what it acquired; `finished` is called
 * once per line as it ends (so progress moves per line, not per chunk).
 */
async function claimChunk(
  client: LedgerClient,
  plan: BackfillPlan,
  items: Item[],
  finished: () => void,
  signal?: AbortSignal,
) {
  const seen = new Set<string>();
  const batch: Item[] = [];
  const deferred: Item[] = [];
  for (const it of items) {
    if (seen.has(it.keyText)) deferred.push(it);
    else batch.push(it);
    seen.add(it.keyText);
  }
  const results: LineResult[] = [];
  // a line's result: kept for the results file, and counted as finished at once
  const done = {
    push(r: LineResult) {
      results.push(r);
      finished();
    },
  };
  const confirms: (() => Promise<void>)[] = [];
  let pending = batch;
  for (let attempt = 1; pending.length > 0; attempt++) {
    signal?.throwIfAborted();
    const answers = await client.worker.claimBatch(
      pending.map((p) => p.request),
      signal,
    );
    const retry: Item[] = [];
    for (const a of answers) {
      const it = pending[a.index]!;
      if (a.ok && a.answer.kind === 'replayed') {
        done.push(
          line(it.line, it.keyText, 'replayed', a.answer.operationId, 200, null, null, a.answer.state),
        );
      } else if (a.ok) {
        const claim = a.answer as AcquiredClaim;
        confirms.push(() => confirm(client, it, claim.operationId, claim.fencingToken, null, done));
      } else if (a.error instanceof InProgressError) {
        confirms.push(() => takeOver(client, plan, it, a.error as InProgressError, done));
      } else if (TRANSIENT.has(a.error.status) && attempt < 5) {
        retry.push(it);
      } else {
        done.push(refusal(it, a.error));
      }
    }
    pending = retry;
    if (retry.length > 0) await sleep(500 * attempt, signal);
  }
  await pool(confirms, plan.concurrency);
  results.sort((a, b) => a.line - b.line);
  return { done: results, deferred };
}

function refusal(it: Item, err: LedgerRequestError): LineResult {
  const status = err instanceof PayloadConflictError ? 'conflict' : 'refused';
  const id = typeof err.problem.operationId === 'string' ? err.problem.operationId : null;
  const state = typeof err.problem.state === 'string' ? err.problem.state : null;
  return line(it.line, it.keyText, status, id, err.status, err.code, err.problem.detail || null, state);
}

/** Confirms an acquired claim: the past effect is recorded (with the line's reference). */
async function confirm(
  client: LedgerClient,
  it: Item,
  id: string,
  token: number,
  note: string | null,
  done: LineSink,
) {
  try {
    const answer = await client.worker.confirm(
      id,
      token,
      it.ref === undefined ? {} : { destinationRef: it.ref },
    );
    done.push(line(it.line, it.keyText, 'acquired', id, 201, null, note, answer.state));
  } catch (err) {
    if (!(err instanceof LedgerRequestError)) throw err;
    done.push(refusal(it, err));
  }
}

/**
 * An `in-progress` line: when this backfill (`workerId`) holds the lease — an interrupted run
 * claimed it — confirm with the current fencing token; otherwise someone else works on it.
 */
async function takeOver(
  client: LedgerClient,
  plan: BackfillPlan,
  it: Item,
  err: InProgressError,
  done: LineSink,
) {
  const id = err.operationId ?? client.operationIdOf(it.key);
  const status = await client.operations.get(id);
  if (status.state === 'in_progress' && status.lease?.workerId === plan.workerId)
    return confirm(client, it, id, status.fencingToken, 'resumed', done);
  done.push(
    line(
      it.line,
      it.keyText,
      'in_progress',
      id,
      409,
      err.code,
      `held by ${status.lease?.workerId ?? 'another worker'}; retry in ${err.retryAfterMs} ms`,
      status.state,
    ),
  );
}

async function pool(tasks: readonly (() => Promise<void>)[], concurrency: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), tasks.length) }, lane));
}
