import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { parseHttpBenchOptions, type HttpBenchOptions } from '../../bench/http/http-bench-options.js';
import { cpuRatio, goalLines, ratio, type TargetOutcome } from '../../bench/http/http-report.js';
import { probeOneStep } from '../../bench/http/one-step-probe.js';
import { processCpuMs } from '../../bench/http/process-cpu.js';
import { benchPoolSize, LEDGER_EXTRA_CONNECTIONS } from '../../bench/http/pool-budget.js';
import { targetById, withBuildA } from '../../bench/http/targets.js';
import { Workload } from '../../bench/workload.js';
import { oneSecondResult } from './support/one-second-result.js';

/** A one-round result with `opsPerSecond` and nothing else measured. */
function measured(id: string, opsPerSecond: number): TargetOutcome {
  const result = oneSecondResult(opsPerSecond);
  return { target: targetById(id), result, rounds: [result], skipped: null, store: 'postgres' };
}

/** Rounds of one second each with these ops/s and server / store CPU (ms) per round. */
function rounds(
  id: string,
  perRound: readonly [ops: number, serverMs: number, storeMs: number][],
): TargetOutcome {
  const results = perRound.map(([ops, server, store]) => ({
    ...oneSecondResult(ops),
    meteredCpuMs: { server, store },
  }));
  return { ...measured(id, 0), result: results[0]!, rounds: results };
}

describe('bench:http options', () => {
  it('refuses a PostgreSQL or Redis URL that is not on loopback', () => {
    expect(() => parseHttpBenchOptions(['--pg-url', 'postgres://postgres@10.0.0.5:5432/postgres'])).toThrow(
      /loopback/,
    );
    expect(() => parseHttpBenchOptions(['--redis-url', 'redis://redis.example:6379'])).toThrow(/loopback/);
  });

  it('bounds every round by time and count, and keeps the selected targets in table order', () => {
    const opts = parseHttpBenchOptions(
      ['--targets', 'pg-new,bare', '--seconds', '2'],
      {},
    ) as HttpBenchOptions;
    expect(opts.targets).toEqual(['bare', 'pg-new']);
    expect(opts.roundMs).toBe(2000);
    expect(opts.maxOpsPerRound).toBeGreaterThan(0);
    expect(() => parseHttpBenchOptions(['--targets', 'nope'], {})).toThrow(/unknown nope/);
  });
});

describe('bench:http goals', () => {
  it('compares the ledger with the baselines of the same run and names each miss', () => {
    const outcomes = [
      measured('hr-new', 1000),
      measured('ni-new', 2000),
      measured('pg-new', 1200),
      measured('pg-off-new', 1250),
      {
        target: targetById('pg-one-step'),
        result: null,
        rounds: [],
        skipped: 'n/a: server lacks startStep',
        store: 'postgres',
      },
    ] satisfies TargetOutcome[];
    expect(ratio(outcomes, 'pg-new', 'hr-new')).toBeCloseTo(1.2);
    const lines = goalLines(outcomes);
    expect(lines).toContain('- PostgreSQL new-key claim vs hand-rolled, ops/s: 1.20× (goal ≥ 1×): met');
    expect(lines).toContain(
      '- PostgreSQL new-key claim vs @node-idempotency on Redis: 0.60× (goal ≥ 0.5×): met',
    );
    expect(lines).toContain(
      '- one-step job vs hand-rolled claim + complete (goal ≥ 0.8×): **MISSED**, n/a: server lacks startStep',
    );
    expect(lines).toContain('- PostgreSQL duplicate claim vs hand-rolled, ops/s: not measured in this run');
  });

  it('takes ratios round by round against the baseline of the same round (median), not pooled', () => {
    // Round 2 ran while the machine was busy: both halved. Pooled, the ledger's faster rounds
    // would weigh more; per round the ledger is 1.2× the baseline in every round.
    const outcomes = [
      rounds('hr-new', [
        [1000, 400, 100],
        [500, 400, 100],
        [1000, 400, 100],
      ]),
      rounds('pg-new', [
        [1200, 600, 200],
        [600, 600, 200],
        [1200, 600, 200],
      ]),
    ];
    expect(ratio(outcomes, 'pg-new', 'hr-new')).toBeCloseTo(1.2);
    // CPU per op, per round: baseline (400+100)/1000 vs ledger (600+200)/1200, etc.
    expect(cpuRatio(outcomes, 'pg-new', 'hr-new')).toBeCloseTo(0.5 / (800 / 1200));
  });

  it('names the projector share of a kind of operation by CPU per operation, with or without the projector', () => {
    const outcomes = [rounds('pg-new', [[1000, 550, 0]]), rounds('pg-off-new', [[1000, 500, 0]])];
    expect(goalLines(outcomes)).toContain(
      '- projector share of a new-key claim (CPU per operation, on vs off): 9.1 % (goal ≤ 10 %): met' +
        ' (throughput: 0.0 % fewer ops/s with it on)',
    );
  });
});

describe('bench:http CPU ratio', () => {
  it("divides the baseline server + store CPU per operation by the target's", () => {
    const withCpu = (id: string, serverMs: number, storeMs: number): TargetOutcome => {
      const o = measured(id, 1000);
      const result = { ...o.result!, meteredCpuMs: { server: serverMs, store: storeMs } };
      return { ...o, result, rounds: [result] };
    };
    const outcomes = [withCpu('hr-new', 300, 100), withCpu('pg-new', 600, 200)];
    expect(cpuRatio(outcomes, 'pg-new', 'hr-new')).toBeCloseTo(0.5);
    expect(goalLines(outcomes).slice(0, 2)).toEqual([
      '- PostgreSQL new-key claim vs hand-rolled, ops/s: 1.00× (goal ≥ 1×): met',
      '- PostgreSQL new-key claim vs hand-rolled, CPU per operation: 0.50× (goal ≥ 1×): **MISSED** by 50 % short',
    ]);
  });
});

describe('bench:http CPU from /proc', () => {
  it('reads the CPU time of a running process and null for one that does not exist', () => {
    const before = processCpuMs(process.pid);
    let x = 0;
    for (let i = 0; i < 5e7; i++) x += i % 7;
    expect(x).toBeGreaterThan(0);
    expect(processCpuMs(process.pid)!).toBeGreaterThan(before!);
    expect(processCpuMs(2 ** 30)).toBeNull();
  });
});

/** A stand-in ledger for the probe: it supports the one-step fields, rejects them (400), or accepts and ignores them. */
function fakeLedger(mode: 'supports' | 'rejects' | 'ignores'): { server: Server; steps: string[] } {
  const steps: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      };
      if (req.url === '/v1/claims') {
        if ('startStep' in body && mode === 'rejects')
          return send(400, { type: 'x/validation', detail: 'startStep' });
        if (mode === 'supports') steps.push(`started:${String(body['startStep'])}`);
        return send(201, { operationId: 'op-1', fencingToken: 1 });
      }
      if (req.url === '/v1/operations/op-1/confirm') {
        if (mode === 'supports') steps.push(`completed:${(body['completeStep'] as { name?: string })?.name}`);
        return send(200, { state: 'confirmed' });
      }
      const done = steps.includes('completed:create');
      send(200, { state: 'confirmed', steps: done ? [{ step: 'create', status: 'completed' }] : [] });
    });
  });
  return { server, steps };
}

describe('bench:http one-step probe', () => {
  it.each([
    ['supports', null],
    ['rejects', 'n/a: server lacks startStep'],
    ['ignores', 'n/a: server ignores startStep/completeStep (no completed step recorded)'],
  ] as const)('a server that %s startStep gives %s', async (mode, expected) => {
    const { server, steps } = fakeLedger(mode);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const pool = new Pool(url);
    try {
      const ctx = {
        pool,
        url,
        server: 'ledger-pg' as const,
        tokens: ['t'],
        workload: new Workload(),
        family: 'p',
        dupKeys: 1,
      };
      expect(await probeOneStep(ctx)).toBe(expected);
      expect(steps).toEqual(mode === 'supports' ? ['started:create', 'completed:create'] : []);
    } finally {
      await pool.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('bench:http --ledger-a (A/B of two builds)', () => {
  it('resolves the entry point and is off by default', () => {
    const opts = parseHttpBenchOptions(['--ledger-a', 'a/dist/src/main.js'], {}) as HttpBenchOptions;
    expect(opts.ledgerA).toBe(`${process.cwd()}/a/dist/src/main.js`);
    expect((parseHttpBenchOptions([], {}) as HttpBenchOptions).ledgerA).toBeNull();
  });

  it('twins every ledger target on its own .a server, right after it; baselines have no twin', () => {
    const twins = withBuildA(['hr-new', 'pg-new', 'pglite-cycle'].map(targetById));
    expect(twins.map((t) => [t.id, t.server])).toEqual([
      ['hr-new', 'hand-rolled'],
      ['pg-new', 'ledger-pg'],
      ['pg-new.a', 'ledger-pg.a'],
      ['pglite-cycle', 'ledger-pglite'],
      ['pglite-cycle.a', 'ledger-pglite.a'],
    ]);
    expect(targetById('pg-new.a')).toMatchObject({ op: 'ledger-new', requests: 1 });
    expect(targetById('pg-new.a').label).toMatch(/\[A\]$/);
    expect(() => targetById('hr-new.a')).toThrow(/unknown target/);
  });
});

describe('bench:http pool budget', () => {
  it('gives every PostgreSQL server of a run the same pool, all fitting max_connections at once', () => {
    expect(benchPoolSize(100, 2, 1)).toBe(20);
    const size = benchPoolSize(100, 4, 2); // an A/B run: four ledger servers and two hand-rolled
    expect(size).toBeLessThan(20);
    expect(6 * size + 4 * LEDGER_EXTRA_CONNECTIONS).toBeLessThanOrEqual(100 - 20);
    expect(() => benchPoolSize(30, 6, 2)).toThrow(/max_connections/);
  });
});
