import { performance } from 'node:perf_hooks';
import type { NodeMiddleware } from '../../common/node-middleware.js';
import { routeTemplateOf } from '../../common/route-template.js';
import type { LedgerMetrics } from './ledger-metrics.js';

/**
 * Middleware recording every request's latency in `ledger_http_request_duration_seconds` when its
 * response is finished (or the connection closes), labelled with the method, the route PATTERN
 * (`/v1/operations/:operationId/confirm`, never the raw path, to bound cardinality; `unmatched`
 * when no route handled it, see `routeTemplateOf`) and the status code. Install it before
 * everything else so refusals by earlier middleware (401) and by the body parser (413) are timed
 * too. SSE streams are timed to their end.
 */
export function httpMetricsMiddleware(metrics: LedgerMetrics): NodeMiddleware {
  return (req, res, next) => {
    const start = performance.now();
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      metrics.httpDuration.observe(
        { method: req.method ?? 'GET', route: routeTemplateOf(req), status: String(res.statusCode) },
        (performance.now() - start) / 1000,
      );
    };
    res.once('finish', record);
    res.once('close', record);
    next();
  };
}
