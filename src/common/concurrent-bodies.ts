import type { NodeMiddleware } from './node-middleware.js';
import { problem } from './problem.js';
import { ProblemException } from './problem.exception.js';

/**
 * Middleware bounding how many requests of a route are read and handled at once (the
 * batch route, whose 16 MiB bodies cost ~140 MiB each while parsed and decided: 20 at once peaked
 * at 2.8 GiB). Beyond `limit` in flight the request is answered 429 `rate-limited` with
 * `Retry-After: 1` before its body is read (Node discards the unread body), so memory stays
 * bounded by `limit` bodies. A slot is freed once the response is sent and the body is in (or
 * discarded), or when the client goes away.
 */
export function concurrentBodies(limit: number): NodeMiddleware {
  let inFlight = 0;
  return (req, res, next) => {
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
    // Held until the answer is sent AND the body is in (read, or discarded by Node after an early
    // answer such as 413): a refusal sent before its 16 MiB arrived would otherwise free the slot
    // at once and admit the next body while this one still streams in.
    const settle = () => {
      if (freed) return;
      const answered = res.writableFinished || res.destroyed;
      const received = req.complete || req.destroyed;
      if (!answered || !received) return;
      freed = true;
      inFlight--;
    };
    res.once('finish', settle);
    res.once('close', settle);
    req.once('end', settle);
    req.once('close', settle);
    next();
  };
}
