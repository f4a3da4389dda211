import { createServer, type Server, type Socket } from 'node:net';

/** The port is taken or the address cannot be bound; `message` is one line for the operator. */
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
 * Length of the listen socket's accept queue (capped by `net.core.somaxconn`). Node's default, 511,
 * overflows when many clients connect while the event loop is busy, and dropped handshakes end in
 * `ECONNRESET` at the client.
 */
export const LISTEN_BACKLOG = 4096;

/** A port bound before the application exists; {@link ReservedPort.handOver} gives it to the HTTP server. */
export interface ReservedPort {
  /** The server holding the bound socket (`address()` tells the port when 0 was asked). */
  readonly server: Server;
  /** Hands `http` the connections accepted (paused) while the application booted. */
  handOver(http: Server): void;
}

/**
 * Binds `host:port` before anything else starts, so a ledger whose port is taken fails at once and
 * creates nothing (docs/decisions.md "Bind the port before opening anything"); then
 * `app.listen(reserved.server, LISTEN_BACKLOG)` and `reserved.handOver(httpServer)`.
 * @throws PortUnavailableError with a one-line message naming the address and what to do.
 */
export function reservePort(host: string, port: number): Promise<ReservedPort> {
  return new Promise((resolve, reject) => {
    let held: Socket[] | null = [];
    const server = createServer({ pauseOnConnect: true }, (socket) => {
      if (held) {
        held.push(socket);
        socket.once('close', () => held?.splice(held.indexOf(socket), 1));
      } else {
        socket.destroy(); // cannot happen once handed over: the handle then feeds the HTTP server
      }
    });
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
    const handOver = (http: Server) => {
      const waiting = held ?? [];
      held = null;
      for (const socket of waiting) {
        http.emit('connection', socket);
        socket.resume();
      }
    };
    // exclusive: a cluster worker must not share a port it believes is its own.
    server.listen({ host, port, exclusive: true, backlog: LISTEN_BACKLOG }, () =>
      resolve({ server, handOver }),
    );
  });
}
