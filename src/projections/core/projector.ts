import type { EventStore, RecordedEvent } from '../../event-store/event-store.port.js';
import { rebuildStep } from '../rebuild/rebuild-step.js';
import { applyLiveBatch, type BeforeCommitHook } from './apply-batch.js';
import { applySharedBatch } from './apply-shared-batch.js';
import type { ReadAll } from './page-cache.js';
import { checkpointStore } from './checkpoint-store.js';
import { installReadModel } from './generation-tables.js';
import type { ProjectionDatabase, ProjectionLock } from './projection-database.js';
import type { ProjectionRecord } from './checkpoint-store.js';
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
  /** Events per live batch (= per transaction, shared by the read models at one checkpoint). @defaultValue 500 */
  readonly batchSize?: number;
  /** Events per shadow batch of a rebuild. @defaultValue 2000 */
  readonly rebuildBatchSize?: number;
  /** Fallback poll when live and no wake-up arrives (also the idle loop's period). @defaultValue 1000 */
  readonly pollMs?: number;
  /**
   * Least time between the starts of two live batches, so a burst of appends is one batch: worth
   * it where read models share the ledger's only connection (PGlite). @defaultValue 0
   */
  readonly minIntervalMs?: number;
  /** How often an instance tries to take over a read model's lock it does not hold. @defaultValue 1000 */
  readonly lockPollMs?: number;
  /** Wait after a read model's failed step before retrying it (events are never skipped). @defaultValue 1000 */
  readonly retryMs?: number;
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

/** The holder refreshes `heartbeat_at` at least this often (ms) while it holds the lock. */
const HEARTBEAT_MS = 5_000;
/** See {@link Projector.holdLocks}, ms. */
const LOCK_TRY_SLACK_MS = 5;

/** What the loop knows of one read model. */
interface Slot {
  readonly model: ReadModel;
  lock: ProjectionLock | null;
  state: ProjectorState;
  lastError: string | null;
  /** When the state was last recorded on the read model's row (Date.now()). */
  lastMark: number;
  /** When taking the lock was last tried (0: never). */
  lastLockTry: number;
  /** A failed read model is left alone until then (Date.now()). */
  retryAt: number;
}

/**
 * Keeps a set of read models up to date in one loop: catch-up over `EventStore.readAll` from the
 * stored checkpoints, then live (woken by appends, else every `pollMs`). Read models at one
 * checkpoint share a page read and a transaction; a failed shared batch is retried model by model
 * so one failing read model does not hold the others back. Each read model has its own lock, so
 * one instance takes over when the holder dies. Events are never skipped.
 */
export class Projector {
  private readonly slots: Slot[];
  /** Slots that failed during the current step (their state stays `failed` until the next one). */
  private readonly failedInStep = new Set<Slot>();
  private running: Promise<void> | null = null;
  private stopping = false;
  private readonly wakeup = new Wakeup();
  private unsubscribe: (() => void) | null = null;
  private readonly o: Required<Omit<ProjectorOptions, 'onError' | 'beforeCommit' | 'readAll'>> &
    ProjectorOptions;
  private readonly readAll: ReadAll;

  constructor(
    models: readonly ReadModel[],
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
      ...options,
    };
    this.readAll = options.readAll ?? ((after, limit) => store.readAll(after, limit));
    this.slots = models.map((model) => ({
      model,
      lock: null,
      state: 'stopped',
      lastError: null,
      lastMark: 0,
      lastLockTry: 0,
      retryAt: 0,
    }));
  }

  /** The read models' names. */
  get names(): string[] {
    return this.slots.map((s) => s.model.name);
  }

  /** This instance's view of read model `name` (state, holder id, last failure), or undefined. */
  statusOf(name: string): ProjectorStatus | undefined {
    const slot = this.slots.find((s) => s.model.name === name);
    if (!slot) return undefined;
    return { name, state: slot.state, instanceId: this.o.instanceId, lastError: slot.lastError };
  }

  /** Installs the read models' tables if needed and starts projecting in the background. */
  async start(): Promise<void> {
    if (this.running) return;
    this.stopping = false;
    for (const slot of this.slots) {
      slot.state = 'starting';
      await installReadModel(this.db.executor, slot.model);
    }
    this.unsubscribe = this.store.subscribeToAppends?.(() => this.wakeup.signal()) ?? null;
    this.running = this.loop();
  }

  /** Wakes the loop now (e.g. a rebuild was requested). */
  poke(): void {
    this.wakeup.signal();
  }

  /** Stops after the current batch and releases the locks. Idempotent. */
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
      const started = Date.now();
      let busy = false;
      let held: Slot[] = [];
      try {
        held = await this.holdLocks();
        if (held.length > 0) busy = await this.step(held.filter((s) => s.retryAt <= Date.now()));
      } catch (error) {
        // Reading the checkpoints failed (e.g. the database is unreachable): every held read model.
        for (const slot of held) await this.fail(slot, error);
      }
      if (busy || this.stopping) continue;
      await this.wakeup.wait(this.idleWaitMs(held));
      const rest = started + this.o.minIntervalMs - Date.now();
      if (rest > 0 && !this.stopping) await sleep(rest);
    }
    for (const slot of this.slots) {
      if (slot.lock && !slot.lock.lost) {
        await checkpointStore
          .markHolder(this.db.executor, slot.model.name, this.o.instanceId, 'stopped')
          .catch(() => undefined);
      }
      await slot.lock?.release();
      slot.lock = null;
      slot.state = 'stopped';
    }
  }

  /** How long an idle loop sleeps unless woken: the poll, a due retry, or the next lock attempt. */
  private idleWaitMs(held: readonly Slot[]): number {
    const now = Date.now();
    let wait = held.length > 0 ? this.o.pollMs : this.o.lockPollMs;
    for (const slot of this.slots) {
      if (slot.lock && slot.retryAt > now) wait = Math.min(wait, slot.retryAt - now);
      if (!slot.lock) wait = Math.min(wait, slot.lastLockTry + this.o.lockPollMs - now);
    }
    return Math.max(1, wait);
  }

  /** Keeps the locks held and tries (every `lockPollMs`) to take the others. @returns the held slots. */
  private async holdLocks(): Promise<Slot[]> {
    const now = Date.now();
    for (const slot of this.slots) {
      if (slot.lock?.lost) {
        slot.lock = null;
        slot.state = 'standby';
      }
      // A timer may fire a millisecond early: a try due within LOCK_TRY_SLACK_MS counts as due.
      if (slot.lock || this.stopping || now - slot.lastLockTry < this.o.lockPollMs - LOCK_TRY_SLACK_MS)
        continue;
      slot.lastLockTry = now;
      slot.lock = await this.db.tryLock(slot.model.name);
      if (!slot.lock) {
        slot.state = 'standby';
        continue;
      }
      await this.setState(slot, 'catching-up', true);
      const record = await checkpointStore.load(this.db.executor, slot.model.name);
      logProjectorTakeover(takeoverLog, {
        readModel: slot.model.name,
        instanceId: this.o.instanceId,
        checkpoint: record?.position ?? 0n,
      });
    }
    return this.slots.filter((s) => s.lock !== null);
  }

  /**
   * One live batch per checkpoint position (read models at the same position share it), then one
   * rebuild step per read model rebuilding. @returns true when more work is waiting.
   */
  private async step(slots: readonly Slot[]): Promise<boolean> {
    this.failedInStep.clear();
    if (slots.length === 0) return false;
    const records = await checkpointStore.loadMany(
      this.db.executor,
      slots.map((s) => s.model.name),
    );
    const groups = new Map<bigint, Slot[]>();
    for (const slot of slots) {
      const record = records.get(slot.model.name);
      if (!record) {
        await this.fail(slot, new Error(`Read model ${slot.model.name} is not installed`));
        continue;
      }
      const group = groups.get(record.position) ?? [];
      group.push(slot);
      groups.set(record.position, group);
    }
    const full = new Set<Slot>();
    for (const [position, group] of groups) {
      if (this.stopping) return false;
      const events = await this.readAll(position, this.o.batchSize);
      const live = group.filter((s) => s.lock && !s.lock.lost);
      if (events.length === 0 || live.length === 0 || this.stopping) continue;
      for (const slot of await this.applyLive(live, events))
        if (events.length >= this.o.batchSize) full.add(slot);
    }
    let rebuilding = false;
    for (const slot of slots) {
      const record = records.get(slot.model.name);
      if (!record || this.failedInStep.has(slot)) continue;
      const busy = await this.rebuild(slot, record);
      rebuilding ||= busy;
      await this.setState(slot, busy ? 'rebuilding' : full.has(slot) ? 'catching-up' : 'live');
    }
    return full.size > 0 || rebuilding;
  }

  /**
   * Applies `events` to `group` (one checkpoint) in one transaction, else to each alone so the
   * healthy ones advance. @returns the slots that applied the batch.
   */
  private async applyLive(group: readonly Slot[], events: readonly RecordedEvent[]): Promise<Slot[]> {
    try {
      await applySharedBatch(
        this.db,
        group.map((s) => s.model),
        events,
        this.o.instanceId,
        this.o.beforeCommit,
      );
      for (const slot of group) this.succeeded(slot);
      return [...group];
    } catch (error) {
      if (group.length === 1) {
        await this.fail(group[0]!, error);
        return [];
      }
    }
    const done: Slot[] = [];
    for (const slot of group) {
      if (this.stopping || !slot.lock || slot.lock.lost) continue;
      try {
        await applyLiveBatch(this.db, slot.model, events, this.o.instanceId, this.o.beforeCommit);
        this.succeeded(slot);
        done.push(slot);
      } catch (error) {
        await this.fail(slot, error);
      }
    }
    return done;
  }

  /** One rebuild step of `slot` if it is rebuilding. @returns true when the rebuild has more to do. */
  private async rebuild(slot: Slot, record: ProjectionRecord): Promise<boolean> {
    if (record.rebuildGeneration === null || !slot.lock || slot.lock.lost || this.stopping) return false;
    try {
      const result = await rebuildStep(
        this.readAll,
        this.db,
        slot.model,
        this.o.rebuildBatchSize,
        this.o.beforeCommit,
      );
      if (result === 'swapped') this.db.announceLocally(slot.model.name);
      return result === 'progressed';
    } catch (error) {
      await this.fail(slot, error);
      return false;
    }
  }

  private succeeded(slot: Slot): void {
    this.db.announceLocally(slot.model.name);
    slot.lastError = null;
    if (slot.state === 'failed') slot.state = 'catching-up';
  }

  /** Reports a failure of `slot` and leaves it alone for `retryMs` (it is retried, never skipped). */
  private async fail(slot: Slot, error: unknown): Promise<void> {
    this.failedInStep.add(slot);
    slot.state = 'failed';
    slot.lastError = error instanceof Error ? error.message : String(error);
    slot.retryAt = Date.now() + this.o.retryMs;
    this.o.onError?.(slot.model.name, error);
    await checkpointStore.markError(this.db.executor, slot.model.name, slot.lastError).catch(() => undefined);
  }

  /** Sets the state; records it (and the heartbeat) on the read model's row when it changed or is due. */
  private async setState(slot: Slot, state: ProjectorState, force = false): Promise<void> {
    const now = Date.now();
    if (slot.state === state && !force && now - slot.lastMark < HEARTBEAT_MS) return;
    slot.state = state;
    slot.lastMark = now;
    await checkpointStore.markHolder(this.db.executor, slot.model.name, this.o.instanceId, state);
  }
}
