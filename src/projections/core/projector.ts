import type { EventStore } from '../../event-store/event-store.port.js';
import { rebuildStep } from '../rebuild/rebuild-step.js';
import { applyLiveBatch, type BeforeCommitHook } from './apply-batch.js';
import type { ReadAll } from './page-cache.js';
import { pruneChanges } from './change-log.js';
import { checkpointStore } from './checkpoint-store.js';
import { installReadModel } from './generation-tables.js';
import type { ProjectionDatabase, ProjectionLock } from './projection-database.js';
import type { ReadModel } from './read-model.js';
import { sleep, Wakeup } from './wakeup.js';
import { logProjectorTakeover, nestEventLogger } from '../../observability/index.js';

/** The line an instance writes when it takes a read model's lock (docs/observability.md). */
const takeoverLog = nestEventLogger('Projector');

/** What a projector is doing. `standby`: another instance holds the read model. */
export type ProjectorState =
  'stopped' | 'starting' | 'standby' | 'catching-up' | 'live' | 'rebuilding' | 'failed';

/** Options of a {@link Projector}. Durations in milliseconds. */
export interface ProjectorOptions {
  /** Who projects (shown as `holder`), e.g. `hostname:pid:random`. */
  readonly instanceId: string;
  /** Events per live batch (= per transaction). @defaultValue 500 */
  readonly batchSize?: number;
  /** Events per shadow batch of a rebuild. @defaultValue 2000 */
  readonly rebuildBatchSize?: number;
  /** Fallback poll when live and no wake-up arrives. @defaultValue 1000 */
  readonly pollMs?: number;
  /**
   * Least time between the starts of two live batches: a wake-up that comes sooner waits, so a
   * burst of appends is applied as one batch. Worth it where the read models share the ledger's
   * only connection (PGlite), where every transaction makes claims wait. @defaultValue 0
   */
  readonly minIntervalMs?: number;
  /** How often a standby instance tries to take over the lock. @defaultValue 1000 */
  readonly lockPollMs?: number;
  /** Wait after a failed step before retrying (events are never skipped). @defaultValue 1000 */
  readonly retryMs?: number;
  /** Feed changes older than this are pruned by the holder. @defaultValue 24 h */
  readonly changeRetentionMs?: number;
  /** Called with failures (the projector retries them). */
  readonly onError?: (model: string, error: unknown) => void;
  /** Test hook inside each batch transaction, before commit; throwing rolls the batch back. */
  readonly beforeCommit?: BeforeCommitHook;
  /** How pages of the log are read (default `store.readAll`; the runtime shares a {@link PageCache}). */
  readonly readAll?: ReadAll;
}

/** A snapshot of one projector, for status routes. */
export interface ProjectorStatus {
  readonly name: string;
  readonly state: ProjectorState;
  readonly instanceId: string;
  /** Message of the last failed step since the last successful batch, else null. */
  readonly lastError: string | null;
}

const PRUNE_EVERY_MS = 60_000;
/** The holder refreshes `heartbeat_at` at least this often (ms) while it holds the lock. */
const HEARTBEAT_MS = 5_000;

/**
 * Keeps one read model up to date: a catch-up subscription over `EventStore.readAll` from the
 * stored checkpoint, then live (woken by the store's append hook, else polling). Each batch is
 * ONE transaction with the checkpoint ({@link applyLiveBatch}); an online rebuild in progress is
 * advanced between live batches ({@link rebuildStep}). Only the instance holding the read model's
 * lock projects; others stand by and poll for the lock, so one takes over when the holder dies.
 * Failures are reported and retried after `retryMs` — an event is never skipped.
 */
export class Projector {
  private state: ProjectorState = 'stopped';
  private lock: ProjectionLock | null = null;
  private running: Promise<void> | null = null;
  private stopping = false;
  private readonly wakeup = new Wakeup();
  private unsubscribe: (() => void) | null = null;
  private lastError: string | null = null;
  private lastPrune = 0;
  private lastMark = 0;
  private readonly o: Required<Omit<ProjectorOptions, 'onError' | 'beforeCommit' | 'readAll'>> &
    ProjectorOptions;
  private readonly readAll: ReadAll;

  constructor(
    private readonly model: ReadModel,
    private readonly store: EventStore,
    private readonly db: ProjectionDatabase,
    options: ProjectorOptions,
  ) {
    this.o = {
      batchSize: 500,
      rebuildBatchSize: 2000,
      pollMs: 1000,
      minIntervalMs: 0,
      lockPollMs: 1000,
      retryMs: 1000,
      changeRetentionMs: 24 * 3600_000,
      ...options,
    };
    this.readAll = options.readAll ?? ((after, limit) => store.readAll(after, limit));
  }

  /** The read model's name. */
  get name(): string {
    return this.model.name;
  }

  /** This instance's view: state, holder id, last failure. */
  status(): ProjectorStatus {
    return {
      name: this.model.name,
      state: this.state,
      instanceId: this.o.instanceId,
      lastError: this.lastError,
    };
  }

  /** Installs the read model's tables if needed and starts projecting in the background. */
  async start(): Promise<void> {
    if (this.running) return;
    this.stopping = false;
    this.state = 'starting';
    await installReadModel(this.db.executor, this.model);
    this.unsubscribe = this.store.subscribeToAppends?.(() => this.wakeup.signal()) ?? null;
    this.running = this.loop();
  }

  /** Wakes the loop now (e.g. a rebuild was requested). */
  poke(): void {
    this.wakeup.signal();
  }

  /** Stops after the current batch and releases the lock. Idempotent. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeup.signal();
    await this.running;
    this.running = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      try {
        if (!(await this.holdLock())) {
          this.state = 'standby';
          await this.wakeup.wait(this.o.lockPollMs);
          continue;
        }
        const started = Date.now();
        const busy = await this.step();
        if (!busy && !this.stopping) {
          await this.wakeup.wait(this.o.pollMs);
          const rest = started + this.o.minIntervalMs - Date.now();
          if (rest > 0 && !this.stopping) await sleep(rest);
        }
      } catch (error) {
        this.state = 'failed';
        this.lastError = error instanceof Error ? error.message : String(error);
        this.o.onError?.(this.model.name, error);
        await checkpointStore
          .markError(this.db.executor, this.model.name, this.lastError)
          .catch(() => undefined);
        if (!this.stopping) await sleep(this.o.retryMs);
      }
    }
    if (this.lock && !this.lock.lost) {
      await checkpointStore
        .markHolder(this.db.executor, this.model.name, this.o.instanceId, 'stopped')
        .catch(() => undefined);
    }
    await this.lock?.release();
    this.lock = null;
    this.state = 'stopped';
  }

  /** Holds (or tries to take) the lock. @returns whether this instance may project now. */
  private async holdLock(): Promise<boolean> {
    if (this.lock?.lost) this.lock = null;
    if (this.lock) return true;
    this.lock = await this.db.tryLock(this.model.name);
    if (this.lock) {
      await this.setState('catching-up', true);
      const record = await checkpointStore.load(this.db.executor, this.model.name);
      logProjectorTakeover(takeoverLog, {
        readModel: this.model.name,
        instanceId: this.o.instanceId,
        checkpoint: record?.position ?? 0n,
      });
    }
    return this.lock !== null;
  }

  /** One live batch, then one rebuild step. @returns true when more work is waiting. */
  private async step(): Promise<boolean> {
    const record = await checkpointStore.load(this.db.executor, this.model.name);
    if (!record) throw new Error(`Read model ${this.model.name} is not installed`);
    const events = await this.readAll(record.position, this.o.batchSize);
    if (this.lock?.lost || this.stopping) return false;
    if (events.length > 0) {
      await applyLiveBatch(this.db, this.model, events, this.o.instanceId, this.o.beforeCommit);
      this.db.announceLocally(this.model.name);
      this.lastError = null;
    }
    const full = events.length >= this.o.batchSize;
    let rebuilding = false;
    if (record.rebuildGeneration !== null && !this.lock?.lost && !this.stopping) {
      const result = await rebuildStep(
        this.readAll,
        this.db,
        this.model,
        this.o.rebuildBatchSize,
        this.o.beforeCommit,
      );
      rebuilding = result === 'progressed';
      if (result === 'swapped') this.db.announceLocally(this.model.name);
    }
    await this.setState(rebuilding ? 'rebuilding' : full ? 'catching-up' : 'live');
    await this.maybePrune();
    return full || rebuilding;
  }

  /** Sets the state; records it (and the heartbeat) on the read model's row when it changed or is due. */
  private async setState(state: ProjectorState, force = false): Promise<void> {
    const now = Date.now();
    if (this.state === state && !force && now - this.lastMark < HEARTBEAT_MS) return;
    this.state = state;
    this.lastMark = now;
    await checkpointStore.markHolder(this.db.executor, this.model.name, this.o.instanceId, state);
  }

  private async maybePrune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await pruneChanges(this.db.executor, this.model.name, this.model.feeds, this.o.changeRetentionMs);
  }
}
