import { LedgerRequestError } from '../errors.js';
import { sleep } from '../http/transport.js';
import type { OperationsApi } from '../http/operations-api.js';
import type { ReportsApi } from '../http/reports-api.js';
import type { ReviewItem } from '../types.js';
import type { Evidence, OperatorApi } from '../http/operator-api.js';

/** The sub-clients `recover` reads and writes through (a `LedgerClient` is one). */
export interface RecoveryRoutes {
  readonly operations: Pick<OperationsApi, 'get' | 'history'>;
  readonly reports: Pick<ReportsApi, 'reviewQueueAll'>;
  readonly operator: Pick<OperatorApi, 'submitEvidence'>;
}
import { providerKeyOf } from '../key/operation-key.js';
import type { Json, OperationKey, StepStatus } from '../types.js';

/** An operation whose outcome is unknown, as `lookup` receives it. */
export interface UnknownOperation {
  readonly operationId: string;
  readonly key: Required<OperationKey>;
  /** The payload of the first claim. */
  readonly payload: Json | null;
  /** Every step, with status, attempt and provider idempotency key. */
  readonly steps: readonly StepStatus[];
  /** Steps started but unfinished in the attempt whose outcome is unknown. */
  readonly startedSteps: readonly string[];
  /** When the outcome became unknown (ISO 8601). */
  readonly since: string;
  /** The provider idempotency key the worker sent the destination for `step`. */
  providerKey(step: string): string;
}

/** What `lookup` found at the destination. `checkedFields` is recorded as evidence. */
export type LookupResult =
  | { readonly found: string; readonly checkedFields?: Record<string, unknown>; readonly note?: string }
  | { readonly notFound: true; readonly checkedFields?: Record<string, unknown>; readonly note?: string }
  | { readonly inconclusive: true; readonly checkedFields?: Record<string, unknown>; readonly note?: string };

/** Options of `recover`. */
export interface RecoverOptions {
  /** The tenant whose review queue is read (the API key needs `auditor` or `operator` there). */
  readonly tenant: string;
  /** Only this action's operations. */
  readonly action?: string;
  /** Searches the destination (e.g. by external reference or provider idempotency key). */
  /** Returns null to skip the operation (not this process's to decide). */
  readonly lookup: (op: UnknownOperation) => Promise<LookupResult | null> | LookupResult | null;
  /** Called after the ledger accepted evidence (the verdict and the reference found). */
  readonly onEvidence?: (op: UnknownOperation, evidence: Evidence) => void | Promise<void>;
  /** Called after a `notFound` verdict released the operation (e.g. to re-queue its job). */
  readonly onReleased?: (op: UnknownOperation) => void | Promise<void>;
  /** Keep going: a pass every `intervalMs` until `signal` aborts. Without it: one pass. */
  readonly loop?: { readonly intervalMs: number; readonly signal: AbortSignal };
}

/** What one or more passes did. */
export interface RecoveryReport {
  passes: number;
  found: number;
  notFound: number;
  inconclusive: number;
  /** Entries already settled on their stream (the review queue is a projection and may lag). */
  alreadySettled: number;
  /** Entries `lookup` skipped (returned null). */
  skipped: number;
  /**
   * Operations whose lookup or evidence failed, with the latest error (one entry per operation).
   * A transient failure is tried again on a later pass of a loop; see {@link isDefinitive}.
   */
  readonly errors: { operationId: string; error: unknown }[];
}

/** Most passes a failing operation waits before it is tried again (the backoff's cap). */
export const MAX_BACKOFF_PASSES = 32;

/**
 * A failure that asking again will not change: a refusal of the ledger (4xx) other than 408 and
 * 429. Everything else is transient — the ledger unreachable or 503 after the client's retries,
 * a 5xx, and any error `lookup` throws (the destination briefly unreachable).
 */
export function isDefinitive(error: unknown): boolean {
  return (
    error instanceof LedgerRequestError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 408 &&
    error.status !== 429
  );
}

/**
 * The recovery process ("inspect, don't retry"): reads the tenant's review queue for
 * `unknown_outcome` entries, asks `lookup` what the destination holds, and submits evidence
 * (`POST …/evidence`): found → confirmed, not found → released for retry, inconclusive → left to
 * an operator (not asked again in this run). A transient failure (see {@link isDefinitive}) is
 * tried again on a later pass with exponential backoff in passes (1, 2, 4 … at most
 * {@link MAX_BACKOFF_PASSES} passes later); a definitive refusal is not asked again. Roles: `auditor` or `operator` to read the queue,
 * `worker` or `operator` for evidence.
 */
export async function recover(api: RecoveryRoutes, options: RecoverOptions): Promise<RecoveryReport> {
  const report: RecoveryReport = {
    passes: 0,
    found: 0,
    notFound: 0,
    inconclusive: 0,
    alreadySettled: 0,
    skipped: 0,
    errors: [],
  };
  const skip = new Set<string>();
  const failing = new Map<string, { failures: number; retryAtPass: number }>();
  const noteError = (operationId: string, error: unknown) => {
    const at = report.errors.findIndex((e) => e.operationId === operationId);
    if (at >= 0) report.errors[at] = { operationId, error };
    else report.errors.push({ operationId, error });
    if (isDefinitive(error)) return skip.add(operationId);
    const failures = (failing.get(operationId)?.failures ?? 0) + 1;
    const wait = Math.min(2 ** (failures - 1), MAX_BACKOFF_PASSES);
    failing.set(operationId, { failures, retryAtPass: report.passes + wait });
  };
  do {
    report.passes++;
    const entries = api.reports.reviewQueueAll(options.tenant, {
      reason: 'unknown_outcome',
      action: options.action,
      limit: 100,
    });
    for await (const entry of entries) {
      if (skip.has(entry.operationId)) continue;
      if ((failing.get(entry.operationId)?.retryAtPass ?? 0) > report.passes) continue;
      try {
        const verdict = await recoverOne(api, entry, options);
        if (verdict === 'inconclusive') skip.add(entry.operationId);
        if (verdict === 'skipped') report.skipped++;
        else if (verdict === 'settled') report.alreadySettled++;
        else if (verdict === 'found') report.found++;
        else if (verdict === 'not_found') report.notFound++;
        else report.inconclusive++;
        failing.delete(entry.operationId);
      } catch (error) {
        noteError(entry.operationId, error);
      }
    }
    if (options.loop) await sleep(options.loop.intervalMs, options.loop.signal).catch(() => undefined);
  } while (options.loop && !options.loop.signal.aborted);
  return report;
}

async function recoverOne(
  api: RecoveryRoutes,
  entry: ReviewItem,
  options: RecoverOptions,
): Promise<'found' | 'not_found' | 'inconclusive' | 'settled' | 'skipped'> {
  const status = await api.operations.get(entry.operationId);
  if (status.state !== 'unknown') return 'settled';
  const history = await api.operations.history(entry.operationId);
  const claimed = history.events.find((e) => e.type === 'OperationClaimed');
  const key = status.key;
  const op: UnknownOperation = {
    operationId: entry.operationId,
    key,
    payload: (claimed?.data.payload ?? null) as Json | null,
    steps: status.steps,
    startedSteps: (entry.startedSteps ?? []).map((s) => s.step),
    since: entry.since,
    providerKey: (step) => providerKeyOf(key, step),
  };
  const result = await options.lookup(op);
  if (result === null) return 'skipped';
  const checkedFields = result.checkedFields ?? {
    providerKeys: Object.fromEntries(op.startedSteps.map((s) => [s, op.providerKey(s)])),
  };
  const evidence: Evidence =
    'found' in result
      ? { verdict: 'found' as const, destinationRef: result.found, checkedFields, note: result.note }
      : 'notFound' in result
        ? { verdict: 'not_found' as const, checkedFields, note: result.note }
        : { verdict: 'inconclusive' as const, checkedFields, note: result.note };
  try {
    await api.operator.submitEvidence(entry.operationId, evidence);
  } catch (err) {
    if (err instanceof LedgerRequestError && err.code === 'not-unknown') return 'settled';
    throw err;
  }
  await options.onEvidence?.(op, evidence);
  if (evidence.verdict === 'not_found') await options.onReleased?.(op);
  return evidence.verdict;
}
