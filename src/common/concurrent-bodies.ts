import type { NodeMiddleware } from './node-middleware.js';
import { problem } from './problem.js';
import { ProblemException } from './problem.exception.js';

/**
 * Middleware bounding how many requests of a route are read and handled at once (the
 * batch route, whose 16 MiB bodies cost ~140 MiB each while parsed and decided: 20 at once peaked
 * at 2.8 GiB). Beyond `limit` in flight the request is answered 429 `rate-limited` with
 * `Retry-After: 1` before its body is read (Node discards the unread body), so memory stays
 * bounded by `limit` bodies. A slot is freed once the response is sent or the client goes away.
 */
export function concurrentBodies(limit: number): NodeMiddleware {
  let inFlight = 0;
  return (_req, res, next) => {
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
    // Freed once the answer is sent (or the connection is gone): a body refused before it was read
    // (413 on its declared length, 429, 401) is discarded by Node as it arrives and holds no memory,
    // and its client may keep the connection without ever sending the rest.
    const free = () => {
      if (freed) return;
      freed = true;
      inFlight--;
    };
    res.once('finish', free);
    res.once('close', free);
    next();
  };
}
