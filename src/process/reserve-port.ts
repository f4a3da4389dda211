import { createServer, type Server } from 'node:net';

/**
 * The listening socket was not obtained: the port is taken, or the address cannot be bound.
 * `message` is one line meant for the operator (no stack trace needed).
 */
export class PortUnavailableError extends Error {
  override readonly name = 'PortUnavailableError';
  constructor(
    message: string,
    /** The system error code: `EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`, … */
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Binds `host:port` before anything else starts, so a ledger whose port is taken fails at once
 * and creates nothing (no database, no admin key). The returned server holds the bound socket;
 * pass it to `app.listen(server)` (Node's `server.listen(handle)`, which takes over the same
 * socket, so no other process can take the port in between). Connections that arrive while the
 * application boots wait in the socket's backlog.
 * `port` 0 binds a free port; `server.address()` tells which.
 * @throws PortUnavailableError with a one-line message naming the address and what to do.
 */
export function reservePort(host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => {
      const code = err.code ?? 'UNKNOWN';
      const where = `${host}:${port}`;
      const hint =
        code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use (another ledger, or another program): stop it or set PORT`
          : code === 'EACCES'
            ? `not allowed to listen on ${where} (ports below 1024 need privileges): set PORT`
            : code === 'EADDRNOTAVAIL'
              ? `${host} is not an address of this machine: set HOST`
              : `cannot listen on ${where}: ${err.message}`;
      reject(new PortUnavailableError(hint, code));
    });
    // exclusive: a cluster worker must not share a port it believes is its own.
    server.listen({ host, port, exclusive: true }, () => resolve(server));
  });
}
