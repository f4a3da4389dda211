// HttpDrain on a real Node HTTP server and raw sockets: a client that sends its next request on a
// kept-alive connection just after the stop began gets 503 shutting-down and Connection: close —
// not a connection reset with its request unhandled (what a fresh user's worker saw four times in
// two stops under load, while Node's server.close() closed idle connections at once).
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { HttpDrain } from '../../src/process/http-drain.js';

let server: Server;
let handled = 0;

beforeEach(async () => {
  handled = 0;
  server = createServer();
  const drain = HttpDrain.of(server);
  server.on('request', (req, res) =>
    drain.refuseWhileDraining(req, res, () => {
      handled++;
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 2 });
      res.end('ok');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterEach(() => server.closeAllConnections());

/**
 * Sends one keep-alive request on `socket` and resolves with the raw response: complete at its
 * Content-Length, or at the end of the connection ('' when it closed before answering).
 */
function exchange(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    if (socket.destroyed || socket.readableEnded) return resolve('');
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (/\r\n\r\n[\s\S]*$/.test(text) && /content-length: (\d+)/i.test(text)) {
        const length = Number(/content-length: (\d+)/i.exec(text)![1]);
        if (text.length - text.indexOf('\r\n\r\n') - 4 >= length) done();
      }
    };
    const done = () => {
      socket.off('data', onData);
      socket.off('close', done);
      socket.off('end', done);
      resolve(text);
    };
    socket.on('data', onData);
    socket.once('close', done);
    socket.once('end', done);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
  });
}

it('answers a request sent on an idle kept-alive connection after the drain began with 503 shutting-down', async () => {
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  expect(await exchange(socket)).toMatch(/^HTTP\/1\.1 200/);
  // the connection is idle now; the stop begins, then the client sends its next request on it
  const stopped = HttpDrain.of(server).drain(5000);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const answer = await exchange(socket);
  expect(answer).toMatch(/^HTTP\/1\.1 503/);
  expect(answer).toMatch(/connection: close/i);
  expect(answer).toContain('"code":"shutting-down"');
  expect(handled).toBe(1);
  expect(await stopped).toBe(0);
  // and the listener is closed: a new connection is refused
  const refused = await new Promise<string>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => resolve('connected'));
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
  expect(refused).toBe('ECONNREFUSED');
  socket.destroy();
}, 10_000);

it('ends once no connection is left, well before the bound', async () => {
  const drain = HttpDrain.of(server).drain(60_000);
  // with no connection open there is nothing to linger for: it resolves without the 60 s bound
  await expect(drain).resolves.toBe(0);
}, 10_000);
