import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { NodeMiddleware } from './node-middleware.js';
import { problem } from './problem.js';
import { ProblemException } from './problem.exception.js';

/**
 * The slots of {@link concurrentBodies}: `take` is the route's middleware, `releaseOnAnswer` a
 * Fastify `onSend` hook of the whole instance (it frees only the slot the answered request holds).
 */
export interface ConcurrentBodies {
  readonly take: NodeMiddleware;
  readonly releaseOnAnswer: (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: null, payload: unknown) => void,
  ) => void;
}

/**
 * Bounds how many requests of a route are read and handled at once (the batch route, whose
 * bodies cost several times their size while parsed and decided: docs/decisions.md "Request
 * bodies").
 * Beyond `limit` in flight `take` refuses the request 429 `rate-limited` with `Retry-After: 1`
 * before its body is read (Node discards the unread body), so memory stays bounded by `limit`
 * bodies.
 *
 * A slot lives as long as its body: it is freed when the request is answered (its handler, or a
 * refusal such as 413, 400 `invalid-json`, 415, hands Fastify the answer: `releaseOnAnswer`) or
 * when its connection closes before the whole body arrived (no handler can run on it then). A
 * client that hangs up once its body is sent does not free it: the body is still parsed and
 * handled, and the slot is freed when that ends (freed at the hang-up, the memory grew past the
 * bound). A request whose connection closed before `take`
 * ran (during the key lookup) takes no slot: no event would free it.
 */
export function concurrentBodies(limit: number): ConcurrentBodies {
  let inFlight = 0;
  const held = new WeakMap<IncomingMessage, () => void>();
  const release = (req: IncomingMessage) => {
    const free = held.get(req);
    if (!free) return;
    held.delete(req);
    free();
  };
  return {
    take: (req, res, next) => {
      // The connection closed before this ran (the key lookup before it is asynchronous): 'close'
      // has been emitted already and would never free a slot taken now. Nothing is held for it.
      if (res.destroyed || req.destroyed || req.socket?.destroyed) return next();
      if (inFlight >= limit) {
        return next(
          new ProblemException(
            problem(
              'rate-limited',
              429,
              `at most ${limit} batch requests are handled at once; retry shortly`,
              {
                retryAfterS: 1,
              },
            ),
            { 'Retry-After': '1' },
          ),
        );
      }
      inFlight++;
      held.set(req, () => inFlight--);
      res.once('finish', () => release(req)); // answered (also without Fastify's reply)
      res.once('close', () => {
        if (!req.complete) release(req); // the body never came whole: nothing will handle it
      });
      next();
    },
    releaseOnAnswer: (request, _reply, payload, done) => {
      release(request.raw);
      done(null, payload);
    },
  };
}
