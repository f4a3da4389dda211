import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Makes `app` listen on an ephemeral loopback port, for the load-generator process of the HTTP
 * path (bench/http-path.ts), and resolves to its base URL, e.g. `http://127.0.0.1:41234`. Stop it
 * with `app.close()`.
 */
export async function listenForLoad(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  // Rounds leave the HTTP path idle for several seconds; with Node's default 5 s the server may
  // close a keep-alive connection just as the client reuses it ("fetch failed").
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}
