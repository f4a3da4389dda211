import type { StoreKind } from '../src/config/ledger-config.js';
import type { ScenarioKind } from './claim-scenarios.js';
import type { LoadOptions, LoadResult } from './harness.js';
import { LoadClient } from './http/load-client.js';
import { duplicateFamilyOf } from './http/target-ops.js';
import type { LedgerServerId } from './http/targets.js';
import type { Workload } from './workload.js';

/** The bench:http target (after its `pg-` / `pglite-` prefix) that runs each scenario over HTTP. */
const TARGET_OF: Readonly<Record<ScenarioKind, string>> = {
  new: 'new',
  duplicate: 'dup',
  cycle: 'cycle',
  'one-step': 'sdk-one-step', // runOnce with firstStep: 2 requests (bench/http/sdk-one-step.ts)
};

const SERVER_OF: Readonly<Record<StoreKind, LedgerServerId | null>> = {
  postgres: 'ledger-pg',
  pglite: 'ledger-pglite',
  eventstoredb: null,
};

/** Longest a count-bounded load (no duration) may run before it counts as stuck, ms. */
const UNBOUNDED_LOAD_MS = 24 * 3600_000;

/**
 * The HTTP path of `npm run bench:claims`: real HTTP from a separate load-generator process (the
 * one of `npm run bench:http`, bench/http/load-generator.ts: undici Pool, one connection per
 * closed-loop client) to the ledger listening in the benchmark process. Its CPU is metered apart
 * (`loadgen`), so `processCpuMs` of a result is the ledger's (and PGlite's) alone.
 */
export class HttpPath {
  private server: LedgerServerId | null = null;
  private clients = 0;

  private constructor(private readonly client: LoadClient) {}

  /** Forks the load generator. */
  static start(): HttpPath {
    return new HttpPath(LoadClient.start());
  }

  /**
   * Points the load generator at the ledger of `store` at `url` (as `token`, a worker key of
   * tenant `bench-gmbh`), with `clients` connections, naming keys with `workload`'s run tag.
   * Resolves to the key family whose first `dupKeys` keys its duplicate scenario repeats: the
   * caller completes them beforehand (in process: seeding over HTTP met the load generator's
   * 10 s request timeout on a busy machine).
   * @throws Error for a store the HTTP targets do not cover.
   */
  async attach(
    store: StoreKind,
    url: string,
    token: string,
    shape: { readonly clients: number; readonly dupKeys: number; readonly workload: Workload },
  ): Promise<string> {
    const server = SERVER_OF[store];
    if (!server) throw new Error(`the HTTP path has no targets for store ${store}`);
    this.server = server;
    this.clients = shape.clients;
    await this.client.send({
      cmd: 'setup',
      servers: { [server]: { url, tokens: [token] } },
      connections: shape.clients,
      dupKeys: shape.dupKeys,
      runTag: shape.workload.runTag,
    });
    return duplicateFamilyOf(server);
  }

  /**
   * Runs `scenario` over HTTP as {@link runLoad} would run it locally: for `load.durationMs`
   * and/or `load.ops` operations at the attached number of clients (`load.concurrency` must be
   * that number), `load.meters` read around it in this process, plus `loadgen`: the load
   * generator's CPU. Fresh connections per call.
   * @throws Error before {@link attach}, or when the concurrency differs.
   */
  async run(scenario: ScenarioKind, load: LoadOptions): Promise<LoadResult> {
    if (!this.server) throw new Error('HttpPath.run before attach');
    if (load.concurrency !== this.clients) {
      throw new Error(`the load generator runs ${this.clients} clients, not ${load.concurrency}`);
    }
    const prefix = this.server === 'ledger-pg' ? 'pg' : 'pglite';
    await this.client.send({ cmd: 'open', target: `${prefix}-${TARGET_OF[scenario]}` });
    try {
      const meters = Object.entries(load.meters ?? {});
      const ends = await Promise.all(meters.map(([, begin]) => begin()));
      const cpu0 = process.cpuUsage();
      const durationMs = load.durationMs ?? Number.POSITIVE_INFINITY;
      const wait = Number.isFinite(durationMs) ? durationMs + 60_000 : UNBOUNDED_LOAD_MS;
      const result = (await this.client.send(
        { cmd: 'load', durationMs, maxOps: load.ops ?? Number.POSITIVE_INFINITY },
        wait,
      )) as LoadResult;
      const cpu = process.cpuUsage(cpu0);
      const metered = await Promise.all(ends.map((end) => end()));
      return {
        ...result,
        processCpuMs: (cpu.user + cpu.system) / 1000,
        meteredCpuMs: {
          ...Object.fromEntries(meters.map(([name], i) => [name, metered[i]!])),
          loadgen: result.processCpuMs,
        },
      };
    } finally {
      await this.client.send({ cmd: 'close' });
    }
  }

  /** Ends the load generator. */
  stop(): Promise<void> {
    return this.client.stop();
  }
}
