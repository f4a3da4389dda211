import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LedgerAnswer, LedgerDriver } from './ledger-driver.js';

/** A {@link LedgerDriver} over HTTP and the URL it talks to. */
export interface HttpLedger {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly driver: LedgerDriver;
}

/**
 * Makes `app` listen on an ephemeral loopback port and returns a driver that calls its routes
 * with Node's global `fetch` (undici: keep-alive connections, as many as there are concurrent
 * requests; the server keeps idle ones open for 65 s), sending `token` as
 * `Authorization: Bearer <token>` on every request. The load generator shares the process, and
 * so the CPU, with the server. Stop it with `app.close()`.
 */
export async function listenForBench(app: INestApplication, token: string): Promise<HttpLedger> {
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  // Rounds leave the HTTP path idle for several seconds; with Node's default 5 s the server may
  // close a keep-alive connection just as the client reuses it ("fetch failed").
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: unknown): Promise<LedgerAnswer> => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  return {
    url,
    driver: {
      claim: (key, payload) => post('/v1/claims', { key, payload }),
      startStep: (operationId, fencingToken, step) =>
        post(`/v1/operations/${operationId}/steps/${step}/start`, { fencingToken }),
      confirm: (operationId, fencingToken, destinationRef) =>
        post(`/v1/operations/${operationId}/confirm`, { fencingToken, destinationRef }),
    },
  };
}
