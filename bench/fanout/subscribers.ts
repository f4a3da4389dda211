/**
 * The subscriber process of the subscriber fan-out benchmark (../subscriber-fanout.bench.ts):
 * opens `count` SSE subscriptions to the status feed of tenant `bench-gmbh` over plain node:http
 * and counts the `operation` events each receives. The client is kept lean so that it measures
 * the server rather than itself: the stream's bytes are never decoded — occurrences of
 * `event: operation\n` are counted in each raw chunk, plus those spanning two chunks (searched in
 * the joint of the last 16 bytes received before a chunk and its first 16), with no JSON parsing
 * and no EventSource state. IPC: sends `{ ready: n }` once every stream opened and got its
 * `ready` event; answers `'report'` with `{ min, max, total, bytes, refusedStatuses }` (bytes: of
 * the stream bodies, all subscribers).
 * Arguments: <url> <auditor token> <count>.
 */
import http from 'node:http';

const [url, token, countArg] = process.argv.slice(2);
const count = Number(countArg);
const NEEDLE = Buffer.from('event: operation\n', 'latin1');
const READY = 'event: ready';
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const counts = new Array<number>(count).fill(0);
const refused: number[] = [];
let ready = 0;
let bytes = 0;
const live: number[] = [];

/** Occurrences of NEEDLE in `buf` (they cannot overlap: the needle's first byte recurs nowhere in it). */
function occurrences(buf: Buffer): number {
  let n = 0;
  for (let at = buf.indexOf(NEEDLE); at >= 0; at = buf.indexOf(NEEDLE, at + NEEDLE.length)) n++;
  return n;
}

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
        let head: string | null = ''; // the text before `ready` (a few hundred bytes); null after it
        let tail = Buffer.alloc(0); // the last NEEDLE.length - 1 bytes received
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (head !== null) {
            head += chunk.toString('latin1');
            if (head.includes(READY)) {
              head = null;
              ready++;
              live.push(i);
              resolve();
            }
          }
          // An occurrence in the joint starts in `tail` and ends in `chunk`: neither holds it whole.
          const joint = Buffer.concat([tail, chunk.subarray(0, NEEDLE.length - 1)]);
          counts[i]! += occurrences(joint) + occurrences(chunk);
          const last = chunk.length >= NEEDLE.length - 1 ? chunk : Buffer.concat([tail, chunk]);
          tail = Buffer.from(last.subarray(Math.max(0, last.length - (NEEDLE.length - 1))));
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
  process.send!({ min: ready ? min : 0, max, total, bytes, refusedStatuses: refused });
});
