/**
 * Stream-count sweep (`npm run bench:stream-count [-- flags]`, goal: "duplicate cost flat from
 * 10³ to 10⁶ streams with autovacuum off — no plan depends on statistics"). One ledger on a fresh
 * PostgreSQL database, projectors off, claims in-process (bench:claims' in-process path, next to
 * its hand-rolled baseline as a yardstick for the machine's drift): the duplicate keys are seeded
 * and the event tables analysed once while small, then autovacuum is turned off for them and they
 * are filled with streams step by step (bench/filler-streams.ts); at every size, duplicate and
 * new-key claims are measured with the PostgreSQL backends' CPU per claim. Appends the table and
 * the verdicts to bench/RESULTS.md.
 */
import 'reflect-metadata';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createAppApiKey } from '../src/auth/create-app-api-key.js';
import { openBenchStore } from './bench-store.js';
import { baselineOps, ledgerOps, seedDuplicates } from './claim-scenarios.js';
import { combineResults, runLoad, type LoadResult } from './harness.js';
import { inProcessDriver } from './ledger-in-process.js';
import { machineCpuMeter } from './machine-cpu.js';
import { addFillerStreams, freezeStatistics, streamCount } from './filler-streams.js';
import { appendResults } from './report.js';
import { flatnessVerdicts, stepTable, type StreamCountStep } from './stream-count-report.js';
import { Workload } from './workload.js';

const USAGE = `npm run bench:stream-count -- [flags]
  --streams 1000,10000,100000,1000000   sizes of ledger_streams to measure at, ascending
  --seconds 6           measuring time per scenario, path and size (s), in 2 alternating rounds
  --clients 32          concurrent clients
  --pool 20             pg pool size of the ledger and of the baseline
  --dup-keys 512        confirmed operations the duplicate claims repeat
  --pg-url URL          PostgreSQL admin URL (default $LEDGER_BENCH_PG_URL or
                        postgres://postgres@127.0.0.1:5432/postgres); a fresh database per run
  --results FILE        append the figures here (default bench/RESULTS.md)
  --no-record           print only
  --help                this text`;

const log = (line: string) => process.stderr.write(line + '\n');

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return n;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) return void console.log(USAGE);
  const { values } = parseArgs({
    args: argv,
    options: {
      streams: { type: 'string' },
      seconds: { type: 'string' },
      clients: { type: 'string' },
      pool: { type: 'string' },
      'dup-keys': { type: 'string' },
      'pg-url': { type: 'string' },
      results: { type: 'string' },
      'no-record': { type: 'boolean' },
    },
  });
  const sizes = (values.streams ?? '1000,10000,100000,1000000')
    .split(',')
    .map((s) => positiveInt('streams', s.trim(), 0));
  if (sizes.some((s, i) => i > 0 && s <= sizes[i - 1]!)) throw new Error('--streams must be ascending');
  const seconds = positiveInt('seconds', values.seconds, 6);
  const clients = positiveInt('clients', values.clients, 32);
  const pool = positiveInt('pool', values.pool, 20);
  const dupKeys = positiveInt('dup-keys', values['dup-keys'], 512);
  const pgUrl =
    values['pg-url'] ?? process.env['LEDGER_BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const results = values['no-record']
    ? null
    : (values.results ?? fileURLToPath(new URL('../../bench/RESULTS.md', import.meta.url)));

  const started = Date.now();
  const loadBefore = loadavg()[0]!;
  const store = await openBenchStore('postgres', pgUrl, pool, false);
  const url = store.config.databaseUrl!;
  const steps: StreamCountStep[] = [];
  try {
    const workload = new Workload();
    const driver = inProcessDriver(store.app, store.config);
    await createAppApiKey(store.app, { tenant: 'bench-gmbh', roles: ['worker'], name: 'bench' });
    log(`seeding ${dupKeys} confirmed operations…`);
    await seedDuplicates(driver, store.baseline, workload, dupKeys, clients);
    await freezeStatistics(url, true);
    const paths = {
      baseline: baselineOps(store.baseline, workload, dupKeys),
      'in-process': ledgerOps(driver, workload, 'inproc', dupKeys),
    } as const;
    for (const size of sizes) {
      const have = await streamCount(url);
      if (have < size) {
        log(`filling to ${size.toLocaleString('en-US')} streams…`);
        await addFillerStreams(url, have, size);
      }
      const streams = await streamCount(url);
      for (const scenario of ['duplicate', 'new'] as const) {
        const parts: Record<keyof typeof paths, LoadResult[]> = { baseline: [], 'in-process': [] };
        for (const path of ['baseline', 'in-process'] as const) {
          await runLoad(paths[path][scenario], { concurrency: clients, durationMs: 1000 });
        }
        for (let round = 0; round < 2; round++) {
          const order =
            round === 0 ? (['baseline', 'in-process'] as const) : (['in-process', 'baseline'] as const);
          for (const path of order) {
            parts[path].push(
              await runLoad(paths[path][scenario], {
                concurrency: clients,
                durationMs: (seconds * 1000) / 2,
                meters: { machine: machineCpuMeter, pg: () => store.cpuMeter!.begin() },
              }),
            );
          }
        }
        for (const path of ['baseline', 'in-process'] as const) {
          const result = combineResults(parts[path]);
          steps.push({ streams, scenario, path, result });
          log(
            `${streams.toLocaleString('en-US').padStart(10)} ${scenario.padEnd(9)} ${path.padEnd(10)} ` +
              `${result.opsPerSecond.toFixed(0).padStart(6)} ops/s` +
              (result.errors ? `  ${result.errors} errors (${result.firstError})` : ''),
          );
        }
      }
    }
  } finally {
    await store.close();
  }
  const table = stepTable(steps);
  const verdicts = flatnessVerdicts(steps);
  console.log(`\n${table}\n\n${verdicts.join('\n')}`);
  if (results) {
    const script = process.env['npm_lifecycle_event'];
    const command = script
      ? `npm run ${script}${argv.length ? ` -- ${argv.join(' ')}` : ''}`
      : `node dist/bench/stream-count.bench.js ${argv.join(' ')}`.trim();
    await appendResults(
      results,
      [
        `## Stream-count sweep ${new Date(started).toISOString().replace(/\.\d+Z$/, 'Z')}`,
        '',
        `- Command: \`${command}\``,
        `- Machine: ${availableParallelism()} CPUs, ${cpus()[0]?.model.trim() ?? 'unknown CPU'}; Node ${process.version}; ${store.description}`,
        `- ${clients} clients, pool ${pool}, ${seconds} s per scenario, path and size in 2 alternating rounds after 1 s warm-up; ` +
          `${dupKeys} duplicate keys; projectors off; event tables analysed once at ${dupKeys} operations, then autovacuum off for them; ` +
          `filler streams of one event each; whole run ${((Date.now() - started) / 1000).toFixed(0)} s`,
        `- Load average (1 min) before / after: ${loadBefore.toFixed(2)} / ${loadavg()[0]!.toFixed(2)}`,
        '',
        table,
        '',
        '`pg cpu µs/op`: CPU of the PostgreSQL backends of the benchmark database per claim; `node cpu µs/op`: the ' +
          'benchmark process (ledger and load together); `× baseline`: ops/s against the hand-rolled table at the same size.',
        '',
        ...verdicts.map((v) => `- ${v}`),
        '',
      ].join('\n'),
    );
    console.log(`\nAppended to ${results}`);
  }
  if (steps.some((s) => s.result.errors > 0)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
