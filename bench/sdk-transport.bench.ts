/**
 * The worker SDK's transport alone: CPU of THIS process per JSON request through
 * `Transport.request`, on the global `fetch` against the default sender (undici's
 * `Dispatcher.request` on Node), 32 requests in flight. The server is a trivial `node:http` one
 * in a child process, so only the client's cost is measured. Rounds alternate; later rounds are
 * the warm figures. Run: `npm run build && node dist/bench/sdk-transport.bench.js [requests]`.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { Transport } from '@operation-ledger/client';

const CLAIM_ANSWER = '{"operationId":"x","state":"in_progress","attempt":1,"fencingToken":1}';

if (process.argv[2] === 'serve') {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(CLAIM_ANSWER);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as { port: number }).port));
} else {
  const requests = Number(process.argv[2] ?? 6000);
  const child = fork(new URL(import.meta.url).pathname, ['serve']);
  const port = await new Promise<number>((resolve) => child.once('message', (p) => resolve(p as number)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const body = { key: { tenant: 't', source: 's', action: 'a', subject: 'x' }, payload: { amount: 1 } };
  const transports = {
    fetch: new Transport({ baseUrl, fetch: (input, init) => fetch(input, init) }),
    default: new Transport({ baseUrl }),
  };
  for (let round = 1; round <= 3; round++) {
    for (const [name, t] of Object.entries(transports)) {
      let sent = 0;
      const loop = async () => {
        while (sent++ < requests) await t.request('POST', '/v1/claims', { body });
      };
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(Array.from({ length: 32 }, loop));
      const cpu = process.cpuUsage(cpu0);
      const ms = performance.now() - t0;
      const perRequest = (cpu.user + cpu.system) / requests;
      console.log(
        `round ${round} ${name.padEnd(7)} ${perRequest.toFixed(0)} µs CPU/request, ${((requests / ms) * 1000).toFixed(0)} requests/s`,
      );
    }
  }
  child.kill();
}
