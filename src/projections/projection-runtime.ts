import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { EventStore } from '../event-store/event-store.port.js';
import { checkpointStore, type ProjectionRecord } from './core/checkpoint-store.js';
import { installReadModel, requestRebuild } from './core/generation-tables.js';
import type { Lag, LagProbe } from './core/lag-probe.js';
import { installProjectionSchema } from './core/projection-schema.js';
import { PageCache } from './core/page-cache.js';
import type { ProjectionDatabase } from './core/projection-database.js';
import { Projector, type ProjectorOptions, type ProjectorState } from './core/projector.js';
import type { ReadModel } from './core/read-model.js';

/** Options of a {@link ProjectionRuntime}; projector options apply to every read model. */
export interface ProjectionRuntimeOptions extends Omit<ProjectorOptions, 'instanceId'> {
  /** Holder id of this process (default `host:pid:random`). */
  readonly instanceId?: string;
  /** Run projectors in this process (false: serve read models only). @defaultValue true */
  readonly project?: boolean;
}

/** Where a read model stands: its checkpoint (decimal string) and lag. */
export interface Freshness {
  readonly checkpoint: string;
  readonly lag: Lag;
}

/** Status of one read model for operators (GET /v1/projections). Times ISO 8601 UTC. */
export interface ReadModelStatus extends Freshness {
  readonly name: string;
  /** See {@link holderState}. */
  readonly state: ProjectorState | string;
  readonly holder: string | null;
  readonly holderSince: string | null;
  readonly heartbeatAt: string | null;
  readonly generation: number;
  readonly lastEventAt: string | null;
  readonly rebuild: {
    generation: number;
    position: string;
    requestedAt: string | null;
    requestedBy: string | null;
  } | null;
  readonly lastRebuildAt: string | null;
  readonly lastError: string | null;
  /** This process's projector for it: its id and state. */
  readonly local: { instanceId: string; state: ProjectorState } | null;
}

const FRESHNESS_CACHE_MS = 200;
/** Default least interval between live batches on a single-connection database (PGlite), ms. */
const SINGLE_CONNECTION_INTERVAL_MS = 100;
/**
 * Default least interval between live batches on a pooled database (PostgreSQL), ms: a batch
 * costs about the same statements whatever its size, so gathering appends amortises them while
 * the lag stays under its goal (bench/RESULTS.md).
 */
const POOLED_INTERVAL_MS = 50;

/** A holder whose heartbeat is older than this (ms) is reported `holder-silent` (it may have died). */
const HOLDER_SILENT_MS = 20_000;

/**
 * The state to report: `unheld` (never taken), `holder-silent` (no heartbeat: crashed, another
 * instance takes over once the lock is released), else what the holder recorded.
 */
function holderState(record: ProjectionRecord): string {
  if (!record.holder) return 'unheld';
  const state = record.holderState ?? 'unknown';
  const silent = record.heartbeatAt !== null && Date.now() - record.heartbeatAt.getTime() > HOLDER_SILENT_MS;
  return silent && state !== 'stopped' ? 'holder-silent' : state;
}

/** `options` without the keys whose value is undefined (so they do not override defaults). */
function withoutUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Default holder id: host, pid and a random suffix. */
export function defaultInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * The read models of one process: installs their schema, runs ONE {@link Projector} loop for all
 * read models (when `project` is on), and answers how fresh each one is, its status, and rebuild requests.
 */
export class ProjectionRuntime {
  readonly instanceId: string;
  private readonly models = new Map<string, ReadModel>();
  private projector: Projector | null = null;
  private readonly freshness = new Map<string, { at: number; value: Promise<Freshness> }>();
  private started = false;

  constructor(
    readonly store: EventStore,
    readonly db: ProjectionDatabase,
    models: readonly ReadModel[],
    private readonly lagProbe: LagProbe,
    private readonly options: ProjectionRuntimeOptions = {},
  ) {
    this.instanceId = options.instanceId ?? defaultInstanceId();
    for (const model of models) this.models.set(model.name, model);
  }

  /** Names of the read models. */
  get names(): string[] {
    return [...this.models.keys()];
  }

  /** The read model called `name`, or undefined. */
  model(name: string): ReadModel | undefined {
    return this.models.get(name);
  }

  /**
   * Installs the shared tables and each read model's tables, then starts the projectors (in the
   * background: a standby instance waits for the lock without blocking start-up).
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await installProjectionSchema(this.db.executor);
    for (const model of this.models.values()) await installReadModel(this.db.executor, model);
    if (this.options.project === false) return;
    const pages = new PageCache(this.store);
    this.projector = new Projector([...this.models.values()], this.store, this.db, {
      minIntervalMs: this.db.singleConnection ? SINGLE_CONNECTION_INTERVAL_MS : POOLED_INTERVAL_MS,
      ...withoutUndefined(this.options),
      instanceId: this.instanceId,
      readAll: pages.readAll,
    });
    await this.projector.start();
  }

  /** Stops the projectors (releasing their locks) and the database's dedicated session. */
  async stop(): Promise<void> {
    await this.projector?.stop();
    this.projector = null;
    await this.db.close();
    this.started = false;
  }

  /** Checkpoint and lag of read model `name` (cached for 200 ms). @throws Error for an unknown name. */
  freshnessOf(name: string): Promise<Freshness> {
    const cached = this.freshness.get(name);
    if (cached && Date.now() - cached.at < FRESHNESS_CACHE_MS) return cached.value;
    const value = this.measure(name);
    this.freshness.set(name, { at: Date.now(), value });
    value.catch(() => this.freshness.delete(name));
    return value;
  }

  /** Status of every read model. */
  async status(): Promise<ReadModelStatus[]> {
    const records = await checkpointStore.loadAll(this.db.executor);
    const out: ReadModelStatus[] = [];
    for (const record of records) {
      if (!this.models.has(record.name)) continue;
      out.push(await this.describe(record));
    }
    return out;
  }

  /**
   * Starts an online rebuild of `name` (or returns the running one); the holder fills shadow
   * tables and swaps them in when caught up. @throws Error for an unknown name.
   */
  async rebuild(name: string, requestedBy: string): Promise<ReadModelStatus> {
    const model = this.models.get(name);
    if (!model) throw new Error(`Unknown read model ${name}`);
    const record = await requestRebuild(this.db.executor, model, requestedBy);
    this.projector?.poke();
    return this.describe(record);
  }

  private async measure(name: string): Promise<Freshness> {
    const record = await checkpointStore.load(this.db.executor, name);
    if (!record) throw new Error(`Unknown read model ${name}`);
    return { checkpoint: record.position.toString(), lag: await this.lagProbe.measure(record.position) };
  }

  private async describe(record: ProjectionRecord): Promise<ReadModelStatus> {
    const local = this.projector?.statusOf(record.name);
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    const lag = await this.lagProbe.measure(record.position);
    return {
      name: record.name,
      checkpoint: record.position.toString(),
      lag,
      state: holderState(record),
      holder: record.holder,
      holderSince: iso(record.holderSince),
      heartbeatAt: iso(record.heartbeatAt),
      generation: record.generation,
      lastEventAt: iso(record.lastEventAt),
      rebuild:
        record.rebuildGeneration === null
          ? null
          : {
              generation: record.rebuildGeneration,
              position: String(record.rebuildPosition ?? -1n),
              requestedAt: iso(record.rebuildRequestedAt),
              requestedBy: record.rebuildRequestedBy,
            },
      lastRebuildAt: iso(record.lastRebuildAt),
      lastError: record.lastError,
      local: local ? { instanceId: local.instanceId, state: local.state } : null,
    };
  }
}
