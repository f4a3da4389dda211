import { InvalidKeyError } from '../errors.js';
import type { WorkerApi } from '../http/worker-api.js';
import { providerKeyOf, stepNameIssue } from '../key/operation-key.js';
import type { AcquiredClaim, Json, OperationKey } from '../types.js';
import type { Shortcuts } from './shortcuts.js';

/** A step completion not yet sent: it may ride on the confirm (`completeStep`). */
interface PendingCompletion {
  readonly name: string;
  readonly outputs: Json | null;
}

/**
 * Runs `fn` once the microtasks queued so far, and those they queue in turn, have run — before
 * any timer or I/O callback. On Node.js that is `process.nextTick` scheduled from a microtask
 * (Node.js docs "process.nextTick()": the tick queue runs once the microtask queue is drained);
 * elsewhere a zero-delay timer, the closest a browser offers.
 */
const afterMicrotasks: (fn: () => void) => void =
  typeof globalThis.process?.nextTick === 'function'
    ? (fn) => process.nextTick(fn)
    : (fn) => void setTimeout(fn, 0);

/** Thrown by `op.step` once `runOnce` has settled the operation (a timed-out job's late step). */
export class OperationClosedError extends Error {
  override name = 'OperationClosedError';
  constructor(step: string) {
    super(`step ${step}: the operation was already settled by runOnce; the step was not run`);
  }
}

/**
 * The `op` a job receives: the acquired operation and its steps. A step records its start
 * before the job's function runs and its completion (with the function's JSON result as outputs)
 * after; a step completed by an earlier attempt returns its recorded outputs without running.
 */
export class OperationContext {
  readonly operationId: string;
  /** Attempt number (1 for the first claim); also the fencing token. */
  readonly attempt: number;
  readonly fencingToken: number;
  readonly key: Required<OperationKey>;
  /** Aborted when the lease is lost, renewal is refused, the job times out or the caller cancels. */
  readonly signal: AbortSignal;
  private readonly completed = new Map<string, { outputs?: Json | null }>();
  private readonly started = new Set<string>();
  private preStarted: { name: string; providerIdempotencyKey: string } | null;
  private pending: PendingCompletion | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;
  private outputsLoaded = false;

  constructor(
    private readonly api: WorkerApi,
    private readonly shortcuts: Shortcuts,
    claim: AcquiredClaim,
    key: Required<OperationKey>,
    signal: AbortSignal,
  ) {
    this.operationId = claim.operationId;
    this.attempt = claim.attempt;
    this.fencingToken = claim.fencingToken;
    this.key = key;
    this.signal = signal;
    for (const s of claim.completedSteps ?? []) {
      this.completed.set(s.step, s.outputs === undefined ? {} : { outputs: s.outputs });
    }
    this.preStarted = claim.startedStep ?? null;
    if (this.preStarted) this.started.add(this.preStarted.name);
  }

  /** The provider idempotency key of `step` (same for every attempt; computed locally). */
  providerKey(step: string): string {
    return providerKeyOf(this.key, step);
  }

  /** Steps started in this attempt, in order. */
  get startedSteps(): readonly string[] {
    return [...this.started];
  }

  /** Steps started in this attempt whose function has not returned. */
  get unfinishedSteps(): readonly string[] {
    return [...this.started].filter((s) => !this.completed.has(s));
  }

  /** Steps completed by earlier attempts or this one. */
  get completedSteps(): readonly string[] {
    return [...this.completed.keys()];
  }

  /**
   * Runs `fn` as step `name` once per operation: records the start (and gets the provider
   * idempotency key, passed to `fn`), runs `fn`, records its result as the step's outputs.
   * A step completed by an earlier attempt returns its recorded outputs and `fn` is not called.
   * @throws LeaseLostError when the ledger refuses the start (`fn` is not called); `fn`'s error.
   */
  async step<T>(name: string, fn: (providerKey: string) => T | Promise<T>): Promise<T> {
    const issue = stepNameIssue(name);
    if (issue) throw new InvalidKeyError([issue]);
    if (this.closed) throw new OperationClosedError(name);
    const done = this.completed.get(name);
    if (done) return (await this.recordedOutputs(name)) as T;
    await this.flush();
    let providerKey: string;
    if (this.preStarted?.name === name) {
      providerKey = this.preStarted.providerIdempotencyKey;
      this.preStarted = null;
    } else {
      const answer = await this.api.startStep(this.operationId, name, this.fencingToken);
      providerKey = String(answer.providerIdempotencyKey ?? this.providerKey(name));
      this.started.add(name);
    }
    if (this.closed) throw new OperationClosedError(name);
    const result = await fn(providerKey);
    const outputs = toJson(result);
    this.completed.set(name, { outputs });
    if (this.shortcuts.confirmCompleteStep === false) {
      await this.api.completeStep(this.operationId, name, this.fencingToken, outputs);
    } else {
      // The completion rides on the confirm only when the job returns at once (within
      // microtasks, as `const r = await op.step(…); return {…}` does). A job that waits on
      // anything first gets it sent before that wait ends, so a process that dies while the job
      // waits leaves the step completed: the re-run gets its outputs instead of `unknown`.
      this.pending = { name, outputs };
      afterMicrotasks(() => {
        if (!this.closed) void this.flush().catch(() => {});
      });
    }
    return result;
  }

  /**
   * Takes the deferred completion for the confirm's `completeStep`, or null. Waits for a
   * completion already being sent.
   */
  async takePendingCompletion(): Promise<{ name: string; outputs: Json | null } | null> {
    await this.flushing;
    const p = this.pending;
    this.pending = null;
    return p;
  }

  /** Sends a deferred completion now (before another step, or when the job failed). */
  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.flushing = this.api
      .completeStep(this.operationId, p.name, this.fencingToken, p.outputs)
      .then(() => undefined)
      .finally(() => (this.flushing = null));
    return this.flushing;
  }

  /** Refuses further steps (runOnce settled the operation). */
  close(): void {
    this.closed = true;
  }

  private async recordedOutputs(name: string): Promise<Json | null> {
    const entry = this.completed.get(name)!;
    if (entry.outputs !== undefined) return entry.outputs;
    if (!this.outputsLoaded) {
      const status = await this.api.status(this.operationId);
      for (const s of status.steps) {
        if (s.status === 'completed' && this.completed.has(s.step)) {
          this.completed.set(s.step, { outputs: s.outputs ?? null });
        }
      }
      this.outputsLoaded = true;
    }
    return this.completed.get(name)?.outputs ?? null;
  }
}

/** A step result as JSON outputs: `undefined` → null; anything else must survive JSON. */
function toJson(value: unknown): Json | null {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as Json;
}
