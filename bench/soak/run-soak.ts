/**
 * `npm run soak [-- --minutes 60 --stores pglite,postgres --rate <ops/s>]`: a soak of a real
 * server process per store (`dist/src/main.js`, lease sweeper every 1 s, projector and retention
 * running), first 20 s closed-loop to measure throughput, then an open loop at half of it (or
 * `--rate`). RSS (/proc) and V8 heap (the server's /metrics) are sampled every 10 s, p99 of the
 * claim latency per minute. Prints a summary and appends it to bench/RESULTS.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import pg from 'pg';
import { measureThroughput, runOpenLoop, type MinuteStats, type SoakTarget } from './soak-load.js';

const MIB = 1024 * 1024;
const opts = new Command()
  .option('--minutes <n>', 'soak length per store, minutes', '60')
  .option('--stores <list>', 'comma-separated: pglite,postgres', 'pglite,postgres')
  .option('--rate <opsPerSecond>', 'open-loop rate (default: half the measured throughput)')
  .option(
    '--admin-url <url>',
    'PostgreSQL admin URL',
    process.env['LEDGER_TEST_PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  )
  .parse()
  .opts<{ minutes: string; stores: string; rate?: string; adminUrl: string }>();

interface Sample {
  readonly atS: number;
  readonly rssMiB: number;
  readonly heapMiB: number;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: opts.adminUrl });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = 20_000 + Math.floor(Math.random() * 40_000);
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LEDGER_RATE_LIMIT: '0',
      LEDGER_SWEEP_INTERVAL_MS: '1000',
      LEDGER_RETENTION_INTERVAL_MS: '60000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on http')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}:\n${out}`)));
  });
  child.stdout!.resume();
  // A soak stopped with Ctrl-C or SIGTERM must not leave its server running.
  const stop = () => child.kill('SIGKILL');
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  return { child, url: `http://127.0.0.1:${port}` };
}

async function issue(url: string, adminToken: string, roles: string[], tenant: string): Promise<string> {
  const res = await fetch(`${url}/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant, roles, name: `soak-${roles.join('-')}` }),
  });
  return ((await res.json()) as { token: string }).token;
}

async function sample(child: ChildProcess, t: SoakTarget, startedAt: number): Promise<Sample> {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  const metrics = await (
    await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${t.readerToken}` } })
  ).text();
  const heap = Number(/^ledger_nodejs_heap_size_used_bytes (\S+)/m.exec(metrics)?.[1] ?? NaN);
  return { atS: Math.round((Date.now() - startedAt) / 1000), rssMiB: rss / MIB, heapMiB: heap / MIB };
}

async function soak(store: string): Promise<string> {
  const adminToken = `olk_${randomBytes(12).toString('hex')}_${randomBytes(32).toString('base64url')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-soak-'));
  const database = `ledger_soak_${randomBytes(6).toString('hex')}`;
  const env: Record<string, string> = {
    LEDGER_STORE: store,
    LEDGER_DATA_DIR: dataDir,
    LEDGER_ADMIN_TOKEN: adminToken,
  };
  if (store === 'postgres') {
    await admin(`create database ${database}`);
    const url = new URL(opts.adminUrl);
    url.pathname = `/${database}`;
    env['DATABASE_URL'] = url.toString();
  }
  const server = await startServer(env);
  try {
    const t: SoakTarget = {
      url: server.url,
      workerToken: await issue(server.url, adminToken, ['worker'], 'soak'),
      readerToken: await issue(server.url, adminToken, ['auditor', 'operator'], '*'),
    };
    const measured = await measureThroughput(t, 16, 20_000);
    const rate = opts.rate ? Number(opts.rate) : Math.max(1, Math.round(measured / 2));
    console.log(
      `${store}: measured ${measured.toFixed(1)} ops/s closed-loop (16 clients); soaking at ${rate} ops/s for ${opts.minutes} min`,
    );
    const startedAt = Date.now();
    const samples: Sample[] = [await sample(server.child, t, startedAt)];
    const timer = setInterval(
      () =>
        void sample(server.child, t, startedAt).then(
          (s) => samples.push(s),
          () => undefined,
        ),
      10_000,
    );
    const minutes = await runOpenLoop(t, rate, Number(opts.minutes), (m) =>
      console.log(
        `${store} minute ${m.minute}: ${m.ops} ops, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, errors ${m.errors}, RSS ${samples.at(-1)!.rssMiB.toFixed(0)} MiB`,
      ),
    ).finally(() => clearInterval(timer));
    samples.push(await sample(server.child, t, startedAt));
    return summary(store, measured, rate, minutes, samples);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    if (store === 'postgres') await admin(`drop database if exists ${database} with (force)`);
  }
}

/** Markdown summary; "after warm-up" = samples from the second minute on (the first minute if shorter). */
function summary(
  store: string,
  measured: number,
  rate: number,
  minutes: MinuteStats[],
  samples: Sample[],
): string {
  const warm = samples.filter((s) => s.atS >= 60).length >= 2 ? samples.filter((s) => s.atS >= 60) : samples;
  const first = warm[0]!;
  const last = warm.at(-1)!;
  const maxRss = Math.max(...warm.map((s) => s.rssMiB));
  const growth = (last.rssMiB - first.rssMiB) / first.rssMiB;
  const rows = minutes.map(
    (m) =>
      `| ${m.minute} | ${m.ops} | ${m.p50.toFixed(1)} | ${m.p99.toFixed(1)} | ${m.errors} | ${JSON.stringify(m.statuses)} |`,
  );
  return [
    `### ${store}: ${minutes.length} min at ${rate} ops/s (measured ${measured.toFixed(1)} ops/s closed-loop)`,
    '',
    '| minute | ops | claim p50 ms | claim p99 ms | errors | statuses |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `RSS after warm-up: ${first.rssMiB.toFixed(0)} → ${last.rssMiB.toFixed(0)} MiB (max ${maxRss.toFixed(0)}, ${(growth * 100).toFixed(1)} %); ` +
      `heap used ${first.heapMiB.toFixed(0)} → ${last.heapMiB.toFixed(0)} MiB; ${samples.length} samples every 10 s. ` +
      `Memory ${Math.abs(growth) < 0.1 ? 'flat (within 10 %)' : 'NOT flat'} after warm-up.`,
    `Samples (s: RSS/heap MiB): ${samples.map((s) => `${s.atS}: ${s.rssMiB.toFixed(0)}/${s.heapMiB.toFixed(0)}`).join(', ')}`,
    '',
  ].join('\n');
}

const parts: string[] = [];
for (const store of opts.stores.split(',').map((s) => s.trim())) parts.push(await soak(store));
const report = [
  `## Soak, ${new Date().toISOString()} (\`npm run soak -- --minutes ${opts.minutes}\`)`,
  '',
  `Load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' / ',
    )} at the end; each operation = claim, step start/complete, confirm (1 in 20 abandoned to the sweeper, 1 in 10 replayed, 1 in 25 with a list read).`,
  '',
  ...parts,
].join('\n');
console.log(report);
appendFileSync('bench/RESULTS.md', `\n${report}\n`);
