import { performance } from 'node:perf_hooks';
import type { NodeMiddleware } from '../../common/node-middleware.js';
import { routeTemplateOf } from '../../common/route-template.js';
import type { LedgerMetrics } from './ledger-metrics.js';

/**
 * Middleware recording each request's latency in `ledger_http_request_duration_seconds` by
 * method, route pattern (bounded cardinality) and status. Install it first, so early refusals are
 * timed too.
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
