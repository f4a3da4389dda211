import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { problem } from './problem.js';
import { ProblemException } from './problem.exception.js';

/**
 * Express middleware bounding how many requests of a route are read and handled at once (the
 * batch route, whose 16 MiB bodies cost ~140 MiB each while parsed and decided: 20 at once peaked
 * at 2.8 GiB). Beyond `limit` in flight the request is answered 429 `rate-limited` with
 * `Retry-After: 1` before its body is read (Node discards the unread body), so memory stays
 * bounded by `limit` bodies. A slot is freed when the response finishes or the client goes away.
 */
export function concurrentBodies(limit: number): RequestHandler {
  let inFlight = 0;
  return (req: Request, res: Response, next: NextFunction) => {
    if (inFlight >= limit) {
      return next(
        new ProblemException(
          problem('rate-limited', 429, `at most ${limit} batch requests are handled at once; retry shortly`, {
            retryAfterS: 1,
          }),
          { 'Retry-After': '1' },
        ),
      );
    }
    inFlight++;
    let freed = false;
    const free = () => {
      if (!freed) inFlight--;
      freed = true;
    };
    res.once('finish', free);
    res.once('close', free);
    next();
  };
}
