import { rawRequestOf } from './raw-request.js';

const ROUTE = Symbol('ledger.routeTemplate');

/** What {@link recordRouteTemplate} reads from Fastify's request. */
export interface RoutedRequest {
  readonly raw: object;
  readonly is404?: boolean;
  readonly routeOptions: { readonly url?: string };
}

/**
 * Keeps the route PATTERN Fastify matched for `request` (`/v1/operations/:operationId/confirm`)
 * on its Node.js request, for {@link routeTemplateOf}. Run it as an `onRequest` hook added before
 * the middleware (Fastify routes a request before its hooks run), so a request that middleware
 * refused (401, 429, 503 while draining) has its route too; one no route matches (404) stays
 * `unmatched`.
 */
export function recordRouteTemplate(request: RoutedRequest): void {
  if (request.is404 === true || typeof request.routeOptions.url !== 'string') return;
  (request.raw as { [ROUTE]?: string })[ROUTE] = request.routeOptions.url;
}

/**
 * The route PATTERN that handled `req` (a Node.js or a Fastify request; never the raw path, which
 * carries ids), or `unmatched` when no route matched (a 404, a path the router refused). Read it
 * when the response finishes.
 */
export function routeTemplateOf(req: object): string {
  return rawRequestOf<{ [ROUTE]?: string }>(req)[ROUTE] ?? 'unmatched';
}
