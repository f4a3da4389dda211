import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { performance } from 'node:perf_hooks';
import type { LedgerMetrics } from './ledger-metrics.js';

/**
 * Express middleware recording every request's latency in `ledger_http_request_duration_seconds`
 * when its response is finished (or the connection closes), labelled with the method, the route
 * PATTERN (`/v1/operations/:operationId/confirm`, never the raw path, to bound cardinality;
 * `unmatched` when no route handled it) and the status code. Install it before everything else so
 * refusals by earlier middleware (401, 413) are timed too. SSE streams are timed to their end.
 */
export function httpMetricsMiddleware(metrics: LedgerMetrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = performance.now();
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      const route = (req.route as { path?: unknown } | undefined)?.path;
      metrics.httpDuration.observe(
        {
          method: req.method,
          route: typeof route === 'string' ? `${req.baseUrl}${route}` : 'unmatched',
          status: String(res.statusCode),
        },
        (performance.now() - start) / 1000,
      );
    };
    res.once('finish', record);
    res.once('close', record);
    next();
  };
}
