import type { Request } from 'express';

/**
 * The route PATTERN that handled `req` (`/v1/operations/:operationId/confirm` — never the raw path,
 * which carries ids), or `unmatched` when no route did (a 404, or a refusal by middleware before
 * routing: 401, 413). Read it when the response finishes: Express sets `req.route` while routing.
 */
export function routeTemplateOf(req: Request): string {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  return typeof route === 'string' ? `${req.baseUrl}${route}` : 'unmatched';
}
