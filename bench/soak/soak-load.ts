/** Counts and latencies of one minute of soak load. Latencies in ms. */
export interface MinuteStats {
  readonly minute: number;
  readonly ops: number;
  readonly errors: number;
  readonly statuses: Record<string, number>;
  readonly p50: number;
  readonly p99: number;
}

/** Where the load goes and how hard. */
export interface SoakTarget {
  readonly url: string;
  readonly workerToken: string;
  readonly readerToken: string;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function post(t: SoakTarget, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(t.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.workerToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

let serial = 0;

/**
 * One worker's operation, the mix a soak runs: claim (lease 60 s; 1 in 20 with a 2 s lease that is
 * left to expire, so the sweeper has work), step start/complete, confirm; 1 in 10 repeats the
 * claim afterwards (a replay); 1 in 25 also reads the operations list. @returns the claim's
 * latency (ms) and the statuses seen.
 */
export async function oneOperation(t: SoakTarget, run: string): Promise<{ ms: number; statuses: number[] }> {
  const n = serial++;
  const key = { tenant: 'soak', source: run, action: 'invoice.create', subject: `S-${n}` };
  const abandon = n % 20 === 19;
  const started = performance.now();
  const claim = await post(t, '/v1/claims', {
    key,
    payload: { n, lines: [{ sku: 'A', qty: n % 7 }] },
    leaseMs: abandon ? 2000 : 60_000,
  });
  const ms = performance.now() - started;
  const statuses = [claim.status];
  if (claim.status !== 201) return { ms, statuses };
  const id = claim.body.operationId as string;
  const token = claim.body.fencingToken as number;
  statuses.push((await post(t, `/v1/operations/${id}/steps/send/start`, { fencingToken: token })).status);
  if (abandon) return { ms, statuses };
  statuses.push(
    (await post(t, `/v1/operations/${id}/steps/send/complete`, { fencingToken: token, outputs: { ref: n } }))
      .status,
  );
  statuses.push(
    (await post(t, `/v1/operations/${id}/confirm`, { fencingToken: token, destinationRef: `D-${n}` })).status,
  );
  if (n % 10 === 0)
    statuses.push(
      (await post(t, '/v1/claims', { key, payload: { n, lines: [{ sku: 'A', qty: n % 7 }] } })).status,
    );
  if (n % 25 === 0) {
    const res = await fetch(`${t.url}/v1/tenants/soak/operations?limit=50`, {
      headers: { authorization: `Bearer ${t.readerToken}` },
    });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return { ms, statuses };
}

/** Closed loop with `clients` workers for `ms`: operations per second the server sustains. */
export async function measureThroughput(t: SoakTarget, clients: number, ms: number): Promise<number> {
  const until = Date.now() + ms;
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        await oneOperation(t, 'measure').catch(() => undefined);
        done++;
      }
    }),
  );
  return done / (ms / 1000);
}

/**
 * Open loop: starts `rate` operations per second for `minutes` (never more than `maxInFlight` at
 * once: beyond that a start is counted as an error, the server being too slow), calling
 * `onMinute` with each minute's stats.
 */
export async function runOpenLoop(
  t: SoakTarget,
  rate: number,
  minutes: number,
  onMinute: (stats: MinuteStats) => void,
  maxInFlight = 200,
): Promise<MinuteStats[]> {
  const all: MinuteStats[] = [];
  let inFlight = 0;
  for (let minute = 1; minute <= minutes; minute++) {
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    let errors = 0;
    let ops = 0;
    const pending: Promise<void>[] = [];
    const end = Date.now() + 60_000;
    const interval = 1000 / rate;
    for (let next = Date.now(); next < end; next += interval) {
      const wait = next - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (inFlight >= maxInFlight) {
        errors++;
        continue;
      }
      inFlight++;
      pending.push(
        oneOperation(t, 'soak')
          .then(({ ms, statuses: seen }) => {
            ops++;
            latencies.push(ms);
            for (const s of seen) {
              statuses[s] = (statuses[s] ?? 0) + 1;
              if (s >= 500) errors++;
            }
          })
          .catch(() => void errors++)
          .finally(() => void inFlight--),
      );
    }
    await Promise.all(pending);
    latencies.sort((a, b) => a - b);
    const stats = {
      minute,
      ops,
      errors,
      statuses,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
    all.push(stats);
    onMinute(stats);
  }
  return all;
}
