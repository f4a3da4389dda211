/**
 * Claims/s with many live subscribers, over real HTTP (`npm run bench:fanout -- [--stores
 * pglite,postgres] [--subscribers 40,2000] [--seconds 20] [--rounds 1] [--loops 4] [--pin on|off]
 * [--fan-out-writes-per-s N] [--pg-url URL] [--main another build's dist/server/main.js]
 * [--server-cpu-prof DIR]`). `--fan-out-writes-per-s` sets the server's
 * LEDGER_SSE_FAN_OUT_WRITES_PER_S (unset: the server's default), to weigh the feed pacing's
 * delivery delay against its CPU.
 *
 * For each store and subscriber count: a fresh ledger server process (`dist/server/main.js`, the
 * lease sweeper off so that no expiry adds changes), a subscriber process holding that many SSE
 * subscriptions to the tenant's status feed, the server's CPU over 5 s idle, then a separate load
 * process running `loops` claim loops of new keys for `seconds`. Afterwards every subscriber must
 * have received one `operation` event per claim (counted); the row fails otherwise. Prints a
 * Markdown table and the ratio of claims/s with the most subscribers to that with the fewest
 * (goal ≥ 0.8×) per store.
 *
 * `--pin on` (the default when `taskset` (util-linux) exists and this process may use 2 CPUs or
 * more) runs the ledger server on the first of them ("CPU 0") and everything of the benchmark —
 * this process, the subscriber process and the claim loops — on the second ("CPU 1"), in every
 * row. Without it the load generators share the server's cores, and 2 000 SSE clients take a large
 * share of them that 40 do not: the rows with many subscribers then measure the server with less
 * CPU than the rows with few, which is not the server's fan-out cost. Pinned, the server has the
 * same one CPU in every row. PostgreSQL's backends are not pinned (a shared server of other
 * processes too): they run on either CPU, so on PostgreSQL the server and the load generators lend
 * some time to them; their CPU is reported.
 * `--server-cpu-prof DIR` writes the server's V8 CPU profile (`node --cpu-prof`) there on exit.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './http/process-cpu.js';
import { createBenchKey, startLedgerServer } from './http/ledger-server.js';
import { PostgresCpuMeter } from './postgres-cpu.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

interface Row {
  readonly store: string;
  readonly subscribers: number;
  readonly claimsPerS: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly idleCores: number;
  readonly loadCores: number;
  /** The subscriber process's cores under load (it shares the machine with the server). */
  readonly subscriberCores: number;
  /** The claim-loop process's cores under load. */
  readonly loopCores: number;
  /** The benchmark database's PostgreSQL backends' cores under load; null on PGlite. */
  readonly postgresCores: number | null;
  /** Stream bytes each subscriber received per claim (SSE framing and HTTP chunk headers included). */
  readonly bytesPerClaim: number;
  /** Server CPU per claim under load, ms (includes the projector and the fan-out). */
  readonly cpuMsPerClaim: number;
  /** The machine's 1-minute load average at the end of the load. */
  readonly loadAverage: number;
  readonly delivered: string;
}

/** The next IPC message of `child` that satisfies `accept` (rejects when it exits first). */
function message<T>(child: ChildProcess, accept: (m: any) => boolean = () => true): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown) => {
      if (!accept(m)) return;
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`${child.spawnfile} exited (${code})`)));
  });
}

/**
 * Pins every thread of process `pid` to CPU `cpu` (`taskset -a -p -c`); threads it starts later
 * inherit the pinning from the thread that starts them (sched_setaffinity(2)).
 */
function pin(pid: number, cpu: number): void {
  execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
}

/** Whether `taskset` runs here. */
function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The CPUs this process may run on (`Cpus_allowed_list` of /proc/self/status, proc(5)); [] if unknown. */
function allowedCpus(): number[] {
  try {
    const line = /^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '';
    return line.split(',').flatMap((part) => {
      const [from, to = from] = part.split('-').map(Number);
      return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i);
    });
  } catch {
    return [];
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function run(
  store: 'pglite' | 'postgres',
  subscribers: number,
  o: {
    round: number;
    seconds: number;
    loops: number;
    pgUrl: string;
    workDir: string;
    main?: string;
    /** Directory for the server's V8 CPU profile (node --cpu-prof), written when it stops. */
    cpuProfDir?: string;
    /** Server on its own CPU; this process and its children (started after {@link pin}) on another. */
    pinned: boolean;
    /** LEDGER_SSE_FAN_OUT_WRITES_PER_S of the server; undefined: its default. */
    fanOutWritesPerS?: string;
  },
): Promise<Row> {
  const server = await startLedgerServer({
    name: `fanout-${store}-${subscribers}-${o.round}`, // a fresh data directory for every row
    store,
    projector: true,
    pgAdminUrl: o.pgUrl,
    workDir: o.workDir,
    workerKeys: 1,
    main: o.main,
    env: {
      LEDGER_RATE_LIMIT: '0',
      LEDGER_MAX_SSE_PER_KEY: '10000',
      LEDGER_MAX_SUBSCRIPTIONS: '10000',
      LEDGER_SWEEP_INTERVAL_MS: '0',
      ...(o.fanOutWritesPerS ? { LEDGER_SSE_FAN_OUT_WRITES_PER_S: o.fanOutWritesPerS } : {}),
    },
    nodeArgs: o.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfDir}`] : [],
  });
  const children: ChildProcess[] = [];
  let pgCpu: PostgresCpuMeter | null = null;
  try {
    if (o.pinned) pin(server.process.pid, serverCpu);
    if (server.database) pgCpu = await PostgresCpuMeter.open(server.database.connectionString);
    const auditor = await createBenchKey(server.process.url, server.adminToken, 'fanout-auditor', [
      'auditor',
    ]);
    const subs = fork(here('./fanout/subscribers.js'), [server.process.url, auditor, String(subscribers)], {
      execArgv: [],
    });
    children.push(subs);
    const opened = await message<{ ready: number; refusedStatuses: number[] }>(subs);
    if (opened.ready !== subscribers)
      throw new Error(`${opened.ready} of ${subscribers} subscriptions opened: ${opened.refusedStatuses}`);
    await sleep(2000);
    const idleFrom = processCpuMs(server.process.pid) ?? 0;
    await sleep(5000);
    const idleCores = ((processCpuMs(server.process.pid) ?? 0) - idleFrom) / 5000;

    const loadFrom = processCpuMs(server.process.pid) ?? 0;
    const subsFrom = processCpuMs(subs.pid!) ?? 0;
    const pgEnd = await pgCpu?.begin();
    const started = Date.now();
    const load = fork(
      here('./fanout/claim-loops.js'),
      [
        server.process.url,
        server.workerTokens[0]!,
        String(o.loops),
        String(o.seconds),
        `${store}${subscribers}`,
      ],
      { execArgv: [] },
    );
    children.push(load);
    const result = await message<{
      claims: number;
      refused: number;
      p50Ms: number;
      p99Ms: number;
      cpuMs: number;
    }>(load);
    const elapsed = Date.now() - started;
    const postgresMs = pgEnd ? await pgEnd() : null;
    const loopCores = result.cpuMs / elapsed;
    const serverCpuMs = (processCpuMs(server.process.pid) ?? 0) - loadFrom;
    const subscriberCores = ((processCpuMs(subs.pid!) ?? 0) - subsFrom) / elapsed;
    const loadAverage = loadavg()[0]!;

    // Every subscriber must receive every claim's status change (counted), however late.
    let report = { min: 0, max: 0, total: 0, bytes: 0 };
    const deadline = Date.now() + 120_000;
    do {
      await sleep(500);
      subs.send('report');
      report = await message(subs, (m) => typeof m === 'object' && m !== null && 'min' in m);
    } while (report.min < result.claims && Date.now() < deadline);
    const delivered =
      report.min === result.claims && report.max === result.claims
        ? `all ${subscribers} × ${result.claims}`
        : `MISMATCH min ${report.min} max ${report.max} of ${result.claims}`;
    return {
      store,
      subscribers,
      claimsPerS: result.claims / o.seconds,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      idleCores,
      loadCores: serverCpuMs / elapsed,
      subscriberCores,
      loopCores,
      postgresCores: postgresMs === null ? null : postgresMs / elapsed,
      bytesPerClaim: result.claims ? report.bytes / opened.ready / result.claims : 0,
      cpuMsPerClaim: result.claims ? serverCpuMs / result.claims : 0,
      loadAverage,
      delivered: result.refused ? `${delivered}; ${result.refused} refused claims` : delivered,
    };
  } finally {
    for (const c of children) c.kill('SIGKILL');
    await pgCpu?.close();
    await server.stop();
  }
}

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: 'pglite,postgres' },
    subscribers: { type: 'string', default: '40,2000' },
    seconds: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '1' },
    loops: { type: 'string', default: '4' },
    'pg-url': { type: 'string' },
    main: { type: 'string' },
    'server-cpu-prof': { type: 'string' },
    'fan-out-writes-per-s': { type: 'string' },
    pin: { type: 'string', default: hasTaskset() && allowedCpus().length >= 2 ? 'on' : 'off' },
  },
});
if (values.pin !== 'on' && values.pin !== 'off') throw new Error('--pin takes on or off');
const pinned = values.pin === 'on';
// The first two CPUs this process may use: the server's, and the load generators'.
const [serverCpu = 0, loadCpu = 1] = allowedCpus();
// Before any child starts, so that the subscriber and claim-loop processes inherit the load CPU.
if (pinned) pin(process.pid, loadCpu);
const pgUrl =
  values['pg-url'] ?? process.env['LEDGER_BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const workDir = mkdtempSync(join(tmpdir(), 'ledger-fanout-'));
const rows: (Row & { readonly round: number })[] = [];
const counts = values.subscribers.split(',').map(Number);
try {
  for (const store of values.stores.split(',') as ('pglite' | 'postgres')[]) {
    // Every other round runs the counts in reverse, so a drift of the machine's speed over a run
    // weighs on both ends of the ratio alike.
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const n of round % 2 === 0 ? counts : [...counts].reverse()) {
        const row = await run(store, n, {
          round,
          seconds: Number(values.seconds),
          loops: Number(values.loops),
          pgUrl,
          workDir,
          main: values.main,
          cpuProfDir: values['server-cpu-prof'],
          pinned,
          fanOutWritesPerS: values['fan-out-writes-per-s'],
        });
        rows.push({ ...row, round });
        console.error(JSON.stringify(row));
      }
    }
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
console.log(
  `\nPinned: ${pinned ? `server on CPU ${serverCpu}; subscribers, claim loops and this process on CPU ${loadCpu}; PostgreSQL unpinned` : 'no'}. Fan-out pacing: ${values['fan-out-writes-per-s'] ?? "the server's default"} writes/s.\n`,
);
console.log(
  '| round | store | subscribers | claims/s | p50 ms | p99 ms | server cores idle | server cores under load | server CPU ms per claim | subscriber process cores | claim-loop cores | PostgreSQL cores | bytes per subscriber per claim | load average | delivered |',
);
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(
    `| ${r.round + 1} | ${r.store} | ${r.subscribers} | ${r.claimsPerS.toFixed(0)} | ${r.p50Ms.toFixed(1)} | ${r.p99Ms.toFixed(1)} | ${r.idleCores.toFixed(3)} | ${r.loadCores.toFixed(2)} | ${r.cpuMsPerClaim.toFixed(1)} | ${r.subscriberCores.toFixed(2)} | ${r.loopCores.toFixed(2)} | ${r.postgresCores === null ? '–' : r.postgresCores.toFixed(2)} | ${r.bytesPerClaim.toFixed(0)} | ${r.loadAverage.toFixed(1)} | ${r.delivered} |`,
  );
}
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const [fewest, most] = [Math.min(...counts), Math.max(...counts)];
for (const store of new Set(rows.map((r) => r.store))) {
  const claims: number[] = [];
  const capacity: number[] = [];
  for (const round of new Set(rows.map((r) => r.round))) {
    const few = rows.find((r) => r.store === store && r.round === round && r.subscribers === fewest);
    const many = rows.find((r) => r.store === store && r.round === round && r.subscribers === most);
    if (!few || !many || few === many) continue;
    claims.push(many.claimsPerS / few.claimsPerS);
    // What the ratio would be were the server's CPU the only limit (the load generators elsewhere).
    capacity.push(few.cpuMsPerClaim / many.cpuMsPerClaim);
  }
  if (!claims.length) continue;
  const each = (xs: number[]) =>
    xs.length > 1 ? ` (rounds: ${xs.map((x) => x.toFixed(2)).join(', ')})` : '';
  console.log(
    `\n${store}: claims/s with ${most} subscribers = ${median(claims).toFixed(2)}× with ${fewest}${claims.length > 1 ? ', median' : ''} (goal ≥ 0.8×)${each(claims)}`,
  );
  console.log(
    `${store}: server CPU per claim with ${fewest} ÷ with ${most} = ${median(capacity).toFixed(2)}× (the server's own capacity ratio)${each(capacity)}`,
  );
}
