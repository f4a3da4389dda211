import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** Methods a server may process in parallel when pipelined (RFC 9110 §9.2.1, RFC 9112 §9.3.2). */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * Fastify `onRequest` hook: a request that is not safe, pipelined behind answers still being
 * sent on its connection, waits until its own answer gets the connection, reading nothing more
 * meanwhile; and is never processed when an earlier answer ended the connection. RFC 9112 §9.6:
 * after an answer with `Connection: close` (a live subscription's stream, docs/api.md
 * "Subscriptions") no further request on the connection may be processed — its client never gets
 * the answer, and retries it. Node hands a pipelined request's response the socket only when the
 * answers before it are done (`response.socket` is null until its `socket` event), so one property
 * read tells the common case — nothing pipelined — at no cost.
 */
export function awaitEarlierAnswers(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const res = reply.raw;
  if (res.socket !== null || SAFE.has(request.method)) return done();
  const connection = request.raw.socket;
  connection.pause(); // no further pipelined request is read while this one waits
  const onSocket = () => {
    connection.off('close', onClose);
    connection.resume();
    done();
  };
  const onClose = () => {
    res.off('socket', onSocket);
    reply.hijack(); // the connection ended with an earlier answer: this request was never taken
  };
  res.once('socket', onSocket);
  connection.once('close', onClose);
}
