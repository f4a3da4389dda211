import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** Methods a server may process in parallel when pipelined (RFC 9110 §9.2.1, RFC 9112 §9.3.2). */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** The requests of one connection whose answers are not finished yet. */
interface Connection {
  unanswered: number;
  /** Settles once every request read so far on the connection is answered (or the connection ended). */
  answered: Promise<void>;
  /** Settles the unanswered ones when the connection closes (one listener, however many wait). */
  readonly onClose: Set<() => void>;
}

const connections = new WeakMap<Socket, Connection>();

/**
 * Fastify `onRequest` hook: a request that is not safe, pipelined behind requests still unanswered
 * on its connection, waits for their answers, reading nothing more meanwhile; and is never
 * processed when one of them ended the connection. RFC 9112 §9.6: after an answer with
 * `Connection: close` (a live subscription's stream, docs/api.md "Subscriptions") no further
 * request on the connection may be processed — its client never gets the answer, and retries it.
 */
export function awaitEarlierAnswers(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const socket = request.raw.socket;
  let c = connections.get(socket);
  if (!c) {
    const created: Connection = { unanswered: 0, answered: Promise.resolve(), onClose: new Set() };
    socket.once('close', () => {
      for (const settle of [...created.onClose]) settle();
    });
    connections.set(socket, created);
    c = created;
  }
  const connection = c;
  const waitsFor = connection.unanswered > 0 && !SAFE.has(request.method) ? connection.answered : null;
  connection.unanswered++;
  const mine = new Promise<void>((resolve) => {
    const settle = () => {
      reply.raw.off('finish', settle);
      reply.raw.off('close', settle);
      connection.onClose.delete(settle);
      connection.unanswered--;
      resolve();
    };
    reply.raw.once('finish', settle);
    reply.raw.once('close', settle);
    connection.onClose.add(settle);
  });
  connection.answered = Promise.all([connection.answered, mine]).then(() => undefined);
  if (!waitsFor) return done();
  socket.pause(); // no further pipelined request is read while this one waits
  void waitsFor.then(() => {
    if (socket.destroyed || !socket.writable) {
      reply.hijack(); // the connection ended with an earlier answer: this request was never taken
      return;
    }
    socket.resume();
    done();
  });
}
