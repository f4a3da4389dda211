import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureClientBuilt } from './client-build.js';
import { KILL_POINTS, type KillPlanner, type KillPoint } from './kill-plan.js';
import type { WorkQueue } from './work-queue.js';

/** What the worker processes need to know (passed as environment variables). */
export interface FleetOptions {
  /** Worker processes kept alive at all times (a killed one is replaced at once). */
  readonly size: number;
  readonly queueUrl: string;
  readonly ledgerUrl: string;
  /** The `authorization` header value for the ledger, if it wants one. */
  readonly ledgerAuthorization?: string;
  readonly ticketsUrl: string;
  readonly leaseMs: number;
  readonly ticketTimeoutMs: number;
  /** Extra wait after a `409 in-progress` Retry-After, ms, before claiming again. */
  readonly inProgressBackoffMs: number;
}

/** A worker reported a kill point (before the parent decided). */
export interface Checkpoint {
  readonly worker: string;
  readonly at: KillPoint;
  readonly tag: number;
  /** Present at `after-claim`. */
  readonly operationId?: string;
  /** Present at `after-ticket-created`. */
  readonly ticketId?: string;
}

/** A worker process that died on its own (not by the parent's SIGKILL). */
export interface WorkerCrash {
  readonly worker: string;
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderr: string;
}

/** Counters of the fleet. */
export interface FleetStats {
  readonly spawned: number;
  readonly killed: number;
  readonly crashes: readonly WorkerCrash[];
}

/**
 * The worker script: next to this module when run from the sources (tests), else in the source
 * tree beside `dist/` (the build does not copy `.mjs` files).
 */
export function chaosWorkerScript(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [
    resolve(here, 'chaos-worker.mjs'),
    resolve(here, '..', '..', '..', 'demo', 'chaos', 'chaos-worker.mjs'),
  ];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`chaos-worker.mjs not found (looked at ${candidates.join(', ')})`);
  return found;
}

const STDERR_TAIL = 2_000;
const STOP_GRACE_MS = 2_000;

/**
 * N real worker child processes (`node chaos-worker.mjs`) consuming the {@link WorkQueue}. Each
 * kill point a worker reports goes to the {@link KillPlanner}: the parent SIGKILLs the process
 * there or answers `go`. When a worker exits, the queue puts back what it held (redelivery) and
 * — until {@link stop} — a replacement process is spawned.
 */
export class WorkerFleet {
  private readonly script = chaosWorkerScript();
  private readonly live = new Map<string, ChildProcess>();
  private readonly crashes: WorkerCrash[] = [];
  private spawned = 0;
  private killed = 0;
  private stopping = false;

  constructor(
    private readonly options: FleetOptions,
    private readonly queue: WorkQueue,
    private readonly planner: KillPlanner,
    private readonly onCheckpoint: (checkpoint: Checkpoint) => void = () => {},
  ) {}

  /** Spawns the workers (building the worker SDK first when its build is missing or stale). */
  start(): void {
    ensureClientBuilt();
    for (let i = 0; i < this.options.size; i++) this.spawnWorker();
  }

  /** Stops respawning, closes every worker's stdin (it exits), SIGKILLs stragglers; waits for all. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.live.values()].map(
        (child) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
            child.once('exit', () => {
              clearTimeout(timer);
              done();
            });
            child.stdin?.end();
          }),
      ),
    );
  }

  /** Snapshot of the counters. */
  stats(): FleetStats {
    return { spawned: this.spawned, killed: this.killed, crashes: [...this.crashes] };
  }

  private spawnWorker(): void {
    const o = this.options;
    const worker = `chaos-worker-${++this.spawned}`;
    const child = spawn(process.execPath, [this.script], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        WORKER_ID: worker,
        QUEUE_URL: o.queueUrl,
        LEDGER_URL: o.ledgerUrl,
        LEDGER_AUTHORIZATION: o.ledgerAuthorization ?? '',
        TICKETS_URL: o.ticketsUrl,
        LEASE_MS: String(o.leaseMs),
        TICKET_TIMEOUT_MS: String(o.ticketTimeoutMs),
        IN_PROGRESS_BACKOFF_MS: String(o.inProgressBackoffMs),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.live.set(worker, child);
    let stderr = '';
    let killedHere = false;
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)));
    child.stdin!.on('error', () => {}); // writes racing the process's death
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const checkpoint = parseCheckpoint(worker, line);
      if (!checkpoint || killedHere) return;
      this.onCheckpoint(checkpoint);
      const delivery = this.queue.message(checkpoint.tag)?.deliveries ?? 1;
      if (
        !this.stopping &&
        this.planner.shouldKill({ point: checkpoint.at, tag: checkpoint.tag, delivery })
      ) {
        killedHere = true;
        this.killed++;
        child.kill('SIGKILL');
      } else {
        child.stdin!.write('go\n');
      }
    });
    child.once('exit', (code, signal) => {
      this.live.delete(worker);
      this.queue.consumerGone(worker);
      if (!killedHere && !this.stopping) this.crashes.push({ worker, code, signal, stderr });
      if (!this.stopping) this.spawnWorker();
    });
  }
}

function parseCheckpoint(worker: string, line: string): Checkpoint | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (!KILL_POINTS.includes(v.at as KillPoint) || typeof v.tag !== 'number') return null;
  return {
    worker,
    at: v.at as KillPoint,
    tag: v.tag,
    operationId: typeof v.operationId === 'string' ? v.operationId : undefined,
    ticketId: typeof v.ticketId === 'string' ? v.ticketId : undefined,
  };
}
