/**
 * The load process of the subscriber fan-out benchmark (../subscriber-fanout.bench.ts), forked so
 * that reading thousands of streams does not share its event loop: `loops` sequential claim loops
 * of new keys for `seconds`, then one IPC message `{ claims, refused, p50Ms, p99Ms, cpuMs }` (claims:
 * 201 answers; refused: anything else; latencies of the 201s in ms; cpuMs: this process's CPU
 * time, user + system, since it started).
 * Arguments: <url> <worker token> <loops> <seconds> <run id>.
 */
const [url, token, loopsArg, secondsArg, runId] = process.argv.slice(2);
const loops = Number(loopsArg);
const until = Date.now() + Number(secondsArg) * 1000;
const latencies: number[] = [];
let refused = 0;

async function loop(n: number): Promise<void> {
  for (let i = 0; Date.now() < until; i++) {
    const started = performance.now();
    const res = await fetch(`${url}/v1/claims`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        key: {
          tenant: 'bench-gmbh',
          source: 'bench',
          action: 'invoice.create',
          subject: `${runId}-${n}-${i}`,
        },
        payload: { n, i },
      }),
    });
    await res.arrayBuffer();
    if (res.status === 201) latencies.push(performance.now() - started);
    else refused++;
  }
}

await Promise.all(Array.from({ length: loops }, (_, n) => loop(n)));
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
const cpu = process.cpuUsage();
process.send!(
  {
    claims: latencies.length,
    refused,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    cpuMs: (cpu.user + cpu.system) / 1000,
  },
  () => process.exit(0),
);
