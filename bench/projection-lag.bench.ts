/**
 * Projection lag benchmark (`npm run bench:projection-lag [-- flags]`): starts the ledger (with
 * its projectors) on PostgreSQL (a fresh database) and on in-memory PGlite, subscribes to the
 * status-change feed over SSE, then claims new operations over HTTP at a sustained rate (open
 * loop) and measures, per operation, the time from the claim's append (its 201 response
 * arriving) to the status change reaching the subscriber — i.e. projected, committed with its
 * checkpoint, and delivered. Prints p50/p99/max and appends them to bench/RESULTS.md.
 *
 * Flags: --store pglite|postgres|both (both) · --rate <claims/s> (100) · --seconds <n> (15)
 * · --pg <admin URL> (LEDGER_TEST_PG_ADMIN_URL or postgres://postgres@127.0.0.1:5432/postgres)
 * · --poll-ms <fallback poll> (1000) · --no-results (do not append to RESULTS.md)
 */
import 'reflect-metadata';
import { appendFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createAppApiKey } from '../src/auth/create-app-api-key.js';
import { DEFAULT_CONFIG, type LedgerConfig, type StoreKind } from '../src/config/ledger-config.js';
import { createLedgerApp } from '../src/create-ledger-app.js';
import { LISTEN_BACKLOG, reservePort } from '../src/process/reserve-port.js';
import { percentile } from './harness.js';
import { createBenchDatabase, type BenchDatabase } from './postgres-bench-db.js';
import { followEvents } from './projection-lag-sse.js';

const TENANT = 'bench-gmbh';
const log = (line: string) => process.stderr.write(line + '\n');

interface LagResult {
  readonly store: StoreKind;
  readonly targetRate: number;
  readonly claims: number;
  readonly achievedRate: number;
  readonly seen: number;
  readonly lagP50: number;
  readonly lagP99: number;
  readonly lagMax: number;
  readonly claimP50: number;
  readonly claimP99: number;
}

async function measure(
  kind: StoreKind,
  rate: number,
  seconds: number,
  pgUrl: string,
  pollMs: number,
): Promise<LagResult> {
  let db: BenchDatabase | null = null;
  let config: LedgerConfig = {
    ...DEFAULT_CONFIG,
    store: kind,
    dataDir: 'memory://',
    port: 0,
    rateLimitPerKey: 0,
    projectorPollMs: pollMs,
  };
  if (kind === 'postgres') {
    db = await createBenchDatabase(pgUrl);
    config = { ...config, databaseUrl: db.connectionString };
  }
  const app = await createLedgerApp(config, { logger: false });
  try {
    // As src/main.ts listens (a deep accept queue): at rates near capacity the client opens
    // connections faster than they are accepted, and a full default queue (511) answered them
    // with resets (ECONNRESET), not with the lag this measures.
    const reserved = await reservePort('127.0.0.1', 0);
    await app.listen(reserved.server as never, LISTEN_BACKLOG as never);
    reserved.handOver(app.getHttpServer());
    const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const key = await createAppApiKey(app, {
      tenant: TENANT,
      roles: ['worker', 'auditor'],
      name: 'bench-lag',
    });
    const auth = { authorization: `Bearer ${key.token}` };
    const appended = new Map<string, number>();
    const visible = new Map<string, number>();
    const stop = await followEvents(`${url}/v1/tenants/${TENANT}/operations/changes`, auth, (e) => {
      if (e.event === 'operation' && !visible.has(e.data.operationId))
        visible.set(e.data.operationId, performance.now());
    });
    const claimLatency: number[] = [];
    const run = Date.now().toString(36);
    const total = Math.round(rate * seconds);
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
              key: { tenant: TENANT, source: 'shop', action: 'invoice.create', subject: `lag-${run}-${i}` },
              payload: { i },
            }),
          });
          const body = (await res.json()) as { operationId?: string };
          const done = performance.now();
          if (res.status !== 201 || !body.operationId) throw new Error(`claim answered ${res.status}`);
          appended.set(body.operationId, done);
          claimLatency.push(done - sent);
        })(),
      );
    }
    await Promise.all(inFlight);
    const elapsed = (performance.now() - start) / 1000;
    const deadline = performance.now() + 30_000;
    while (visible.size < appended.size && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    stop();
    // A change may arrive before its claim's response is read: that lag is 0, not negative.
    const lags = [...appended]
      .filter(([id]) => visible.has(id))
      .map(([id, t]) => Math.max(0, visible.get(id)! - t));
    const sortedLags = Float64Array.from(lags).sort();
    const sortedClaims = Float64Array.from(claimLatency).sort();
    return {
      store: kind,
      targetRate: rate,
      claims: appended.size,
      achievedRate: appended.size / elapsed,
      seen: lags.length,
      lagP50: percentile(sortedLags, 50),
      lagP99: percentile(sortedLags, 99),
      lagMax: sortedLags[sortedLags.length - 1] ?? Number.NaN,
      claimP50: percentile(sortedClaims, 50),
      claimP99: percentile(sortedClaims, 99),
    };
  } finally {
    await app.close();
    await db?.drop();
  }
}

function table(results: readonly LagResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.store} | ${r.targetRate} | ${r.achievedRate.toFixed(0)} | ${r.claims} | ${r.seen} | ${r.lagP50.toFixed(1)} | ${r.lagP99.toFixed(1)} | ${r.lagMax.toFixed(1)} | ${r.claimP50.toFixed(1)} | ${r.claimP99.toFixed(1)} |`,
  );
  return [
    '| store | target claims/s | achieved | claims | seen | lag p50 ms | lag p99 ms | lag max ms | claim p50 ms | claim p99 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
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
      'no-results': { type: 'boolean', default: false },
    },
  });
  const stores: StoreKind[] = values.store === 'both' ? ['postgres', 'pglite'] : [values.store as StoreKind];
  const rate = Number(values.rate);
  const seconds = Number(values.seconds);
  const pollMs = Number(values['poll-ms']);
  if (
    !(rate > 0) ||
    !(seconds > 0) ||
    !(pollMs >= 10) ||
    stores.some((s) => s !== 'pglite' && s !== 'postgres')
  ) {
    throw new Error('usage: --store pglite|postgres|both --rate <claims/s> --seconds <n> --poll-ms <ms>');
  }
  const load = loadavg()[0]!;
  const results: LagResult[] = [];
  for (const kind of stores) {
    log(`[${kind}] ${rate} claims/s for ${seconds} s…`);
    const r = await measure(kind, rate, seconds, values.pg!, pollMs);
    log(
      `[${kind}] lag p50 ${r.lagP50.toFixed(1)} ms, p99 ${r.lagP99.toFixed(1)} ms (${r.seen}/${r.claims} seen)`,
    );
    results.push(r);
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
      `(projected, committed with the checkpoint, read from the change log, sent). Open-loop claims over HTTP at the target rate; ` +
      `projector batch ${DEFAULT_CONFIG.projectorBatchSize}, fallback poll ${pollMs} ms (wake-ups: append hook + LISTEN/NOTIFY on PostgreSQL; on PGlite, which has one connection, live batches start at most every 100 ms).\n` +
      `- Machine: ${cpus().length} CPUs, ${cpus()[0]?.model ?? 'unknown'}; Node ${process.version}; load average at start ${load.toFixed(2)}. ` +
      `Load generator, ledger and projectors share the process.\n\n` +
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
