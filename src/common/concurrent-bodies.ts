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
 * Bounds how many requests of a route are read and handled at once (bodies cost several times
 * their size: docs/decisions.md "Request bodies"): beyond `limit`, 429 with `Retry-After: 1`
 * before the body is read. A slot lives as long as its body: freed when the request is answered,
 * or when its connection closes before the body arrived (not at a later hang-up: the body is
 * still being handled).
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
