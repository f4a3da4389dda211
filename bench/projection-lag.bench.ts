/**
 * Projection lag benchmark (`npm run bench:projection-lag [-- flags]`): starts the ledger as its
 * own process (`node dist/server/main.js`, as users run it, projectors on) on PostgreSQL (a fresh
 * database) and on PGlite (a fresh data directory), subscribes to the status-change feed over
 * SSE, then claims new operations over HTTP at a sustained rate (open loop) and measures, per
 * operation, the time from the claim's append (its 201 response arriving) to the status change
 * reaching the subscriber — i.e. projected, committed with its checkpoint, and delivered. Also
 * the CPU per claim of the ledger process and of its PostgreSQL backends, from the first claim
 * until every change arrived (projection included). Prints p50/p99/max and appends them to
 * bench/RESULTS.md.
 *
 * Flags: --store pglite|postgres|both (both) · --rate <claims/s>[,<claims/s>…] (100) · --seconds <n> (15)
 * · --pg <admin URL> (LEDGER_TEST_PG_ADMIN_URL or postgres://postgres@127.0.0.1:5432/postgres)
 * · --poll-ms <fallback poll> (1000) · --ledger-a <another build's dist/server/main.js> (A/B: every
 * measurement also on that build, alternating, in the same run) · --no-results (do not append to
 * RESULTS.md) · --keep-logs (keep the ledger's log and data directory; the path is printed)
 */
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEFAULT_CONFIG, type StoreKind } from '../src/config/ledger-config.js';
import { percentile } from './harness.js';
import { createBenchKey, startLedgerServer } from './http/ledger-server.js';
import { processCpuMs } from './http/process-cpu.js';
import { PostgresCpuMeter } from './postgres-cpu.js';
import { followEvents } from './projection-lag-sse.js';

const TENANT = 'bench-gmbh';
const log = (line: string) => process.stderr.write(line + '\n');

/** One measured run. CPU in microseconds per claim; null when not measurable (PGlite: no server). */
interface LagResult {
  readonly build: 'A' | 'B';
  readonly store: StoreKind;
  readonly targetRate: number;
  readonly claims: number;
  /** Claims answered other than 201 (e.g. 503 when the ledger is overloaded). */
  readonly refused: number;
  readonly achievedRate: number;
  readonly seen: number;
  readonly lagP50: number;
  readonly lagP99: number;
  readonly lagMax: number;
  readonly claimP50: number;
  readonly claimP99: number;
  readonly nodeCpuUs: number | null;
  readonly pgCpuUs: number | null;
}

/** What to measure: one store, rate and build. `main` null: this build's dist/server/main.js. */
interface Run {
  readonly build: 'A' | 'B';
  readonly main: string | null;
  readonly store: StoreKind;
  readonly rate: number;
}

async function measure(
  run: Run,
  seconds: number,
  pgUrl: string,
  pollMs: number,
  keepLogs: boolean,
): Promise<LagResult> {
  const { store: kind, rate } = run;
  const workDir = await mkdtemp(join(tmpdir(), 'ledger-lag-'));
  const server = await startLedgerServer({
    name: `lag-${kind}-${run.build}`,
    store: kind as 'postgres' | 'pglite',
    projector: true,
    pgAdminUrl: pgUrl,
    workDir,
    workerKeys: 0,
    ...(run.main ? { main: run.main } : {}),
    env: { LEDGER_RATE_LIMIT: '0', LEDGER_PROJECTOR_POLL_MS: String(pollMs) },
  });
  const pgCpu = server.database ? await PostgresCpuMeter.open(server.database.connectionString) : null;
  try {
    const url = server.process.url;
    const token = await createBenchKey(url, server.adminToken, 'bench-lag', ['worker', 'auditor']);
    const auth = { authorization: `Bearer ${token}` };
    const appended = new Map<string, number>();
    const visible = new Map<string, number>();
    const stop = await followEvents(`${url}/v1/tenants/${TENANT}/operations/changes`, auth, (e) => {
      if (e.event === 'operation' && !visible.has(e.data.operationId))
        visible.set(e.data.operationId, performance.now());
    });
    const claimLatency: number[] = [];
    let refused = 0;
    const runId = Date.now().toString(36);
    const total = Math.round(rate * seconds);
    const nodeBefore = processCpuMs(server.process.pid);
    const pgEnd = await pgCpu?.begin();
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(
        (async () => {
          const sent = performance.now();
          const res = await fetch(`${url}/v1/claims`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...auth },
            body: JSON.stringify({
              key: { tenant: TENANT, source: 'shop', action: 'invoice.create', subject: `lag-${runId}-${i}` },
              payload: { i },
            }),
          });
          const body = (await res.json().catch(() => ({}))) as { operationId?: string };
          const done = performance.now();
          // An overloaded ledger may refuse (503 store-unavailable) or fail: counted, not measured.
          if (res.status !== 201 || !body.operationId) {
            refused++;
            return;
          }
          appended.set(body.operationId, done);
          claimLatency.push(done - sent);
        })().catch(() => {
          refused++; // the connection failed (reset, refused): counted like a refusal
        }),
      );
    }
    await Promise.all(inFlight);
    const elapsed = (performance.now() - start) / 1000;
    const deadline = performance.now() + 30_000;
    while (visible.size < appended.size && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const nodeAfter = processCpuMs(server.process.pid);
    const pgMs = pgEnd ? await pgEnd() : null;
    stop();
    // A change may arrive before its claim's response is read: that lag is 0, not negative.
    const lags = [...appended]
      .filter(([id]) => visible.has(id))
      .map(([id, t]) => Math.max(0, visible.get(id)! - t));
    const sortedLags = Float64Array.from(lags).sort();
    const sortedClaims = Float64Array.from(claimLatency).sort();
    const perClaim = (ms: number | null) =>
      ms === null || appended.size === 0 ? null : (ms * 1000) / appended.size;
    return {
      build: run.build,
      store: kind,
      targetRate: rate,
      claims: appended.size,
      refused,
      achievedRate: appended.size / elapsed,
      seen: lags.length,
      lagP50: percentile(sortedLags, 50),
      lagP99: percentile(sortedLags, 99),
      lagMax: sortedLags[sortedLags.length - 1] ?? Number.NaN,
      claimP50: percentile(sortedClaims, 50),
      claimP99: percentile(sortedClaims, 99),
      nodeCpuUs: perClaim(nodeBefore === null || nodeAfter === null ? null : nodeAfter - nodeBefore),
      pgCpuUs: perClaim(pgMs),
    };
  } finally {
    await pgCpu?.close();
    await server.stop();
    if (keepLogs) log(`[${run.build} ${kind}] logs kept in ${workDir}`);
    else await rm(workDir, { recursive: true, force: true });
  }
}

const us = (v: number | null) => (v === null ? '—' : v.toFixed(0));

function table(results: readonly LagResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.build} | ${r.store} | ${r.targetRate} | ${r.achievedRate.toFixed(0)} | ${r.claims} | ${r.refused} | ${r.seen} | ${r.lagP50.toFixed(1)} | ${r.lagP99.toFixed(1)} | ${r.lagMax.toFixed(1)} | ${r.claimP50.toFixed(1)} | ${r.claimP99.toFixed(1)} | ${us(r.nodeCpuUs)} | ${us(r.pgCpuUs)} |`,
  );
  return [
    '| build | store | target claims/s | achieved | claims | refused | seen | lag p50 ms | lag p99 ms | lag max ms | claim p50 ms | claim p99 ms | ledger CPU µs/claim | PostgreSQL CPU µs/claim |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      store: { type: 'string', default: 'both' },
      rate: { type: 'string', default: '100' },
      seconds: { type: 'string', default: '15' },
      pg: {
        type: 'string',
        default: process.env.LEDGER_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      },
      'poll-ms': { type: 'string', default: '1000' },
      'ledger-a': { type: 'string' },
      'no-results': { type: 'boolean', default: false },
      'keep-logs': { type: 'boolean', default: false },
    },
  });
  const stores: StoreKind[] = values.store === 'both' ? ['postgres', 'pglite'] : [values.store as StoreKind];
  const rates = values.rate!.split(',').map(Number);
  const seconds = Number(values.seconds);
  const pollMs = Number(values['poll-ms']);
  if (
    !rates.every((rate) => rate > 0) ||
    !(seconds > 0) ||
    !(pollMs >= 10) ||
    stores.some((s) => s !== 'pglite' && s !== 'postgres')
  ) {
    throw new Error(
      'usage: --store pglite|postgres|both --rate <claims/s>[,…] --seconds <n> --poll-ms <ms> [--ledger-a <main.js>]',
    );
  }
  const ledgerA = values['ledger-a'] ? resolve(values['ledger-a']) : null;
  const load = loadavg()[0]!;
  const results: LagResult[] = [];
  for (const store of stores) {
    for (const rate of rates) {
      // A before B at every step, so a drift of the machine's load does not favour one build.
      const runs: Run[] = [
        ...(ledgerA ? [{ build: 'A' as const, main: ledgerA, store, rate }] : []),
        { build: 'B', main: null, store, rate },
      ];
      for (const run of runs) {
        log(`[${run.build} ${store}] ${rate} claims/s for ${seconds} s…`);
        const r = await measure(run, seconds, values.pg!, pollMs, values['keep-logs']!);
        log(
          `[${run.build} ${store}] lag p50 ${r.lagP50.toFixed(1)} ms, p99 ${r.lagP99.toFixed(1)} ms (${r.seen}/${r.claims} seen, ${r.refused} refused), ` +
            `achieved ${r.achievedRate.toFixed(0)}/s, CPU/claim ledger ${us(r.nodeCpuUs)} µs, PostgreSQL ${us(r.pgCpuUs)} µs`,
        );
        results.push(r);
      }
    }
  }
  const text = table(results);
  process.stdout.write(text + '\n');
  if (values['no-results']) return;
  const path = 'bench/RESULTS.md';
  if (!existsSync(path)) await writeFile(path, '# Benchmark results\n');
  const command = `npm run bench:projection-lag -- ${process.argv.slice(2).join(' ')}`.trim();
  await appendFile(
    path,
    `\n## Projection lag — ${new Date().toISOString()}\n\n` +
      `Command: \`${command}\`\n\n` +
      `- Lag = claim's 201 response received → its status change delivered to an SSE subscriber of /v1/tenants/${TENANT}/operations/changes ` +
      `(projected, committed with the checkpoint, read from the status rows changed since, sent). Open-loop claims over HTTP at the target rate; ` +
      `projector batch ${DEFAULT_CONFIG.projectorBatchSize}, fallback poll ${pollMs} ms (wake-ups: append hook + LISTEN/NOTIFY on PostgreSQL).\n` +
      `- The ledger runs as its own process (\`node dist/server/main.js\`${ledgerA ? `; build A: \`${ledgerA}\`` : ''}); CPU per claim = ` +
      `its CPU (and its database's PostgreSQL backends') from the first claim until the last change arrived, over the claims.\n` +
      `- Machine: ${cpus().length} CPUs, ${cpus()[0]?.model ?? 'unknown'}; Node ${process.version}; load average at start ${load.toFixed(2)}.\n\n` +
      text +
      '\n',
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
