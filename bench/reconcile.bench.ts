/**
 * Reconciliation benchmark (`npm run bench:reconcile [-- flags]`, docs/reconciliation.md): starts
 * the ledger as users run it (`node dist/src/main.js`, its own process, on PostgreSQL in a fresh database,
 * default configuration), records `--operations` confirmed operations straight through the event
 * store from this process (claim + confirm decided by the domain, 32 appends at a time), waits
 * for the status view, then streams a generated destination export of `--rows` CSV rows over
 * HTTP to `POST /v1/tenants/{tenant}/reconciliations` and polls the run to completion. Prints the
 * upload and comparison times, the CPU the ledger process and its PostgreSQL backends used in
 * each, and the ledger process's peak RSS (VmHWM; the export is generated here, in another
 * process), and appends them to bench/RESULTS.md. The file: bench/reconcile-data.ts.
 *
 * Flags: --operations <n> (10 000) · --rows <n> (100 000) · --pg <admin URL>
 * (LEDGER_TEST_PG_ADMIN_URL or postgres://postgres@127.0.0.1:5432/postgres) · --no-record.
 * The goal's size: `--operations 100000 --rows 1000000`.
 */
import 'reflect-metadata';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PostgresEventStore } from '../src/event-store/postgres/postgres-event-store.js';
import type { CpuMeter } from './harness.js';
import { createBenchKey, startLedgerServer } from './http/ledger-server.js';
import { processCpuMeter } from './http/process-cpu.js';
import { machineCpuMeter } from './machine-cpu.js';
import { postgresVersion } from './postgres-bench-db.js';
import { PostgresCpuMeter } from './postgres-cpu.js';
import { processMemory } from './process-memory.js';
import { destinationCsv, RECON_ACTION, RECON_TENANT, seedConfirmedOperations } from './reconcile-data.js';

/** Goal "1 M rows within a few hundred MB", read as at most this peak RSS of the ledger, MiB. */
const PEAK_RSS_BOUND_MIB = 500;
const RESULTS = fileURLToPath(new URL('../../bench/RESULTS.md', import.meta.url));

const log = (line: string) => process.stderr.write(line + '\n');
const mib = (kb: number) => kb / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU (ms) of the named meters over `work`, and its wall time (s). */
async function metered<T>(
  meters: Record<string, CpuMeter>,
  work: () => Promise<T>,
): Promise<{ value: T; seconds: number; cpuMs: Record<string, number | null> }> {
  const names = Object.keys(meters);
  const ends = await Promise.all(names.map((n) => meters[n]!()));
  const t0 = performance.now();
  const value = await work();
  const seconds = (performance.now() - t0) / 1000;
  const used = await Promise.all(ends.map((end) => end()));
  return { value, seconds, cpuMs: Object.fromEntries(names.map((n, i) => [n, used[i]!])) };
}

interface Run {
  status: string;
  totals: { byCategory: Record<string, number>; outcomes: Record<string, number> };
  error: string | null;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      operations: { type: 'string', default: '10000' },
      rows: { type: 'string', default: '100000' },
      pg: {
        type: 'string',
        default: process.env['LEDGER_TEST_PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      },
      'no-record': { type: 'boolean' },
    },
  });
  const operations = Number(values.operations);
  const rows = Number(values.rows);
  const load0 = loadavg();
  const workDir = await mkdtemp(join(tmpdir(), 'ledger-bench-recon-'));
  const ledger = await startLedgerServer({
    name: 'recon',
    store: 'postgres',
    projector: true,
    pgAdminUrl: values.pg!,
    workDir,
    workerKeys: 0,
  });
  const url = ledger.process.url;
  const pid = ledger.process.pid;
  let failed = true;
  const seeder = await PostgresEventStore.open({ connectionString: ledger.database!.connectionString });
  const pg = await PostgresCpuMeter.open(ledger.database!.connectionString);
  try {
    const token = await createBenchKey(url, ledger.adminToken, 'bench-recon', ['operator', 'auditor']);
    const auth = { authorization: `Bearer ${token}` };

    let t = performance.now();
    const ids = await seedConfirmedOperations(seeder, operations);
    log(`seeded ${operations} confirmed operations in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    for (;;) {
      const view = await fetch(`${url}/v1/tenants/${RECON_TENANT}/reconciliation?limit=1`, { headers: auth });
      if (((await view.json()) as { lag: { events: number } }).lag.events === 0) break;
      await sleep(250);
    }
    log(`status view caught up in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const before = processMemory(pid);

    const meters = {
      ledger: processCpuMeter(pid),
      pg: () => pg.begin(),
      bench: processCpuMeter(process.pid),
      machine: machineCpuMeter,
    };
    const upload = await metered(meters, async () => {
      const res = await fetch(`${url}/v1/tenants/${RECON_TENANT}/reconciliations?action=${RECON_ACTION}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/csv' },
        body: Readable.toWeb(destinationCsv(ids, rows)) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      const text = await res.text();
      if (res.status !== 202) throw new Error(`upload: ${res.status} ${text.slice(0, 500)}`);
      return JSON.parse(text) as { id: string };
    });
    const comparison = await metered(meters, async () => {
      for (;;) {
        const r = await fetch(`${url}/v1/tenants/${RECON_TENANT}/reconciliations/${upload.value.id}`, {
          headers: auth,
        });
        const run = (await r.json()) as Run;
        if (run.status === 'completed' || run.status === 'failed') return run;
        await sleep(200);
      }
    });
    const run = comparison.value;
    if (run.status !== 'completed') throw new Error(`run failed: ${run.error}`);
    const after = processMemory(pid);
    const peakMib = after ? mib(after.peakKb) : null;
    const cpu = (m: { cpuMs: Record<string, number | null> }, name: string) => {
      const ms = m.cpuMs[name];
      return ms == null ? '?' : `${(ms / 1000).toFixed(1)} s`;
    };
    const other = (m: { seconds: number; cpuMs: Record<string, number | null> }) => {
      const { machine, ledger: l, pg: p, bench: b } = m.cpuMs;
      if (machine == null || l == null || p == null || b == null) return '?';
      const share = (machine - l - p - b) / (m.seconds * 1000 * availableParallelism());
      return `${Math.max(0, 100 * share).toFixed(0)} %`;
    };
    const verdict =
      peakMib === null
        ? 'peak RSS unknown (no /proc)'
        : `peak RSS ${peakMib.toFixed(0)} MiB (bound ${PEAK_RSS_BOUND_MIB} MiB, goal "a few hundred MB"): ` +
          (peakMib <= PEAK_RSS_BOUND_MIB ? 'met' : '**MISSED**');
    const lines = [
      `- Rows: ${rows} destination rows vs ${operations} confirmed operations (PostgreSQL)`,
      `- Upload (streamed over HTTP into SQL, answered 202): ${upload.seconds.toFixed(1)} s ` +
        `(${Math.round(rows / upload.seconds)} rows/s); ledger CPU ${cpu(upload, 'ledger')}, ` +
        `PostgreSQL backends ${cpu(upload, 'pg')}, the benchmark (export generator and client) ${cpu(upload, 'bench')}; ` +
        `other processes used ${other(upload)} of the CPUs`,
      `- Comparison (background run to completed): ${comparison.seconds.toFixed(1)} s; ledger CPU ` +
        `${cpu(comparison, 'ledger')}, PostgreSQL backends ${cpu(comparison, 'pg')}; other processes used ` +
        `${other(comparison)} of the CPUs`,
      `- Ledger process RSS: peak ${peakMib?.toFixed(0) ?? '?'} MiB; before the upload ` +
        `${before ? mib(before.rssKb).toFixed(0) : '?'} MiB (peak so far ${before ? mib(before.peakKb).toFixed(0) : '?'} MiB); ` +
        `at the end ${after ? mib(after.rssKb).toFixed(0) : '?'} MiB`,
      `- Categories ${JSON.stringify(run.totals.byCategory)}; writes ${JSON.stringify(run.totals.outcomes)}`,
      `- ${verdict}`,
    ];
    log(lines.join('\n'));
    const args = process.argv.slice(2).join(' ');
    const section = [
      `## Reconciliation ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (npm run bench:reconcile)`,
      '',
      `- Command: \`npm run bench:reconcile${args ? ` -- ${args}` : ''}\``,
      `- Machine: ${availableParallelism()} CPUs (\`nproc\`), ${cpus()[0]?.model ?? '?'}, shared with other work; ` +
        `Node ${process.version}, ${(await postgresVersion(values.pg!)).split(' on ')[0]} on 127.0.0.1; ` +
        'the ledger is `node dist/src/main.js` with the default configuration; the export is generated by the benchmark process',
      `- Load average (1/5/15 min) before: ${load0.map((l) => l.toFixed(2)).join(' / ')}; after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ')}`,
      ...lines,
      '',
    ].join('\n');
    if (!values['no-record']) {
      await appendFile(RESULTS, `\n${section}`);
      log(`appended to ${RESULTS}`);
    }
    failed = false;
  } finally {
    await pg.close();
    await seeder.close();
    await ledger.stop();
    if (failed) log(`ledger log kept in ${workDir}`);
    else await rm(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
