/**
 * The subscriber process of the subscriber fan-out benchmark (../subscriber-fanout.bench.ts):
 * opens `count` SSE subscriptions to the status feed of tenant `bench-gmbh` and counts the
 * `operation` events each receives. The client is kept lean so that it measures the server rather
 * than itself, as a load generator written for speed would be: each subscription is a raw TCP
 * socket (node:net) that sends one HTTP/1.1 request and reads into one buffer shared by all
 * sockets (`onread`, so receiving allocates nothing); the stream's bytes are never decoded —
 * occurrences of `\nevent: operation\n` are counted in each read, plus those spanning two reads
 * (searched in the joint of the last 17 bytes of a read and the first 17 of the next). The
 * chunked transfer coding's size lines cannot split an event: the server writes whole SSE blocks
 * per chunk. IPC: sends `{ ready: n }` once every stream opened and got its `ready` event; answers
 * `'report'` with `{ min, max, total, bytes, refusedStatuses }` (bytes: of the responses after
 * their heads, all subscribers).
 * Arguments: <url> <auditor token> <count>.
 */
import net from 'node:net';

const [url, token, countArg] = process.argv.slice(2);
const count = Number(countArg);
const target = new URL(url!);
// Led by the newline that ends the event's `id` line: a needle whose first byte is rare is found
// by memchr, several times faster than a search for one that starts with a common letter.
const NEEDLE = Buffer.from('\nevent: operation\n', 'latin1');
const JOINT = NEEDLE.length - 1;
const READY = 'event: ready';
const HEAD_END = '\r\n\r\n';
const request = Buffer.from(
  `GET /v1/tenants/bench-gmbh/operations/changes HTTP/1.1\r\nHost: ${target.host}\r\n` +
    `Authorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`,
  'latin1',
);
/** The one buffer every socket reads into; a read's bytes are used before the next read. */
const shared = Buffer.allocUnsafe(256 * 1024);
const counts = new Array<number>(count).fill(0);
const refused: number[] = [];
let ready = 0;
let bytes = 0;
const live: number[] = [];

/** Occurrences of NEEDLE in `buf` (none overlap in a stream: an `event` line is followed by its `data` line). */
function occurrences(buf: Buffer): number {
  let n = 0;
  for (let at = buf.indexOf(NEEDLE); at >= 0; at = buf.indexOf(NEEDLE, at + NEEDLE.length)) n++;
  return n;
}

function open(i: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let head: string | null = ''; // the response until `ready` (a few hundred bytes); null after it
    const tail = Buffer.alloc(2 * JOINT); // the last JOINT bytes of the previous read, then room
    let tailLength = 0;
    const socket = net.connect({
      host: target.hostname,
      port: Number(target.port),
      onread: {
        buffer: shared,
        callback: (n: number, buf: Uint8Array): boolean => {
          const chunk = Buffer.from(buf.buffer, buf.byteOffset, n);
          if (head !== null) {
            head += chunk.toString('latin1');
            const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
            if (status && status[1] !== '200') {
              refused.push(Number(status[1]));
              socket.destroy();
              resolve();
              return false;
            }
            const end = head.indexOf(HEAD_END);
            if (end < 0 || !head.includes(READY, end)) return true;
            bytes += Buffer.byteLength(head, 'latin1') - end - HEAD_END.length;
            counts[i]! += occurrences(Buffer.from(head.slice(end), 'latin1'));
            head = null;
            ready++;
            live.push(i);
            resolve();
            keepTail(chunk);
            return true;
          }
          bytes += n;
          // An occurrence in the joint starts in `tail` and ends in `chunk`: neither holds it whole.
          chunk.copy(tail, tailLength, 0, Math.min(JOINT, n));
          counts[i]! += occurrences(tail.subarray(0, tailLength + Math.min(JOINT, n))) + occurrences(chunk);
          keepTail(chunk);
          return true;
        },
      },
    });
    const keepTail = (chunk: Buffer) => {
      const keep = Math.min(JOINT, chunk.length);
      if (chunk.length >= JOINT) chunk.copy(tail, 0, chunk.length - keep);
      else {
        // a short read: keep the newest JOINT bytes of the old tail and this read
        const joined = Buffer.concat([tail.subarray(0, tailLength), chunk]);
        joined.copy(tail, 0, Math.max(0, joined.length - JOINT));
        tailLength = Math.min(JOINT, joined.length);
        return;
      }
      tailLength = keep;
    };
    socket.once('connect', () => socket.write(request));
    socket.on('error', reject);
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
