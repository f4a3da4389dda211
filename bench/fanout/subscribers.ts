/**
 * The subscriber process of the subscriber fan-out benchmark (../subscriber-fanout.bench.ts):
 * opens `count` SSE subscriptions to the status feed of tenant `bench-gmbh` over plain node:http
 * and counts the `operation` events each receives (a cheap substring count, no JSON parsing, so
 * the counting costs the machine little). IPC: sends `{ ready: n }` once every stream opened and
 * got its `ready` event; answers `'report'` with `{ min, max, total, refusedStatuses }`.
 * Arguments: <url> <auditor token> <count>.
 */
import http from 'node:http';

const [url, token, countArg] = process.argv.slice(2);
const count = Number(countArg);
const NEEDLE = 'event: operation\n';
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const counts = new Array<number>(count).fill(0);
const refused: number[] = [];
let ready = 0;
const live: number[] = [];

function open(i: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${url}/v1/tenants/bench-gmbh/operations/changes`,
      { agent, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          refused.push(res.statusCode ?? 0);
          res.resume();
          return resolve();
        }
        res.setEncoding('utf8');
        let tail = '';
        let isReady = false;
        res.on('data', (chunk: string) => {
          const text = tail + chunk;
          if (!isReady && text.includes('event: ready')) {
            isReady = true;
            ready++;
            live.push(i);
            resolve();
          }
          for (let at = text.indexOf(NEEDLE); at >= 0; at = text.indexOf(NEEDLE, at + NEEDLE.length))
            counts[i]!++;
          tail = text.slice(-(NEEDLE.length - 1));
        });
      },
    );
    req.on('error', reject);
  });
}

// Open in waves, as clients would connect over some seconds rather than all in one tick.
for (let i = 0; i < count; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, k) => open(i + k)));
}
process.send!({ ready, refusedStatuses: refused });
process.on('message', (message) => {
  if (message !== 'report') return;
  let min = Infinity;
  let max = 0;
  let total = 0;
  for (const c of live.map((i) => counts[i]!)) {
    min = Math.min(min, c);
    max = Math.max(max, c);
    total += c;
  }
  process.send!({ min: ready ? min : 0, max, total, refusedStatuses: refused });
});
