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
 * on its Node.js request, for {@link routeTemplateOf}. Run it as an `onRequest` hook added after
 * the middleware: a request that middleware refused (401, 429, 503 while draining) stays
 * `unmatched`, as does one no route matches (404).
 */
export function recordRouteTemplate(request: RoutedRequest): void {
  if (request.is404 === true || typeof request.routeOptions.url !== 'string') return;
  (request.raw as { [ROUTE]?: string })[ROUTE] = request.routeOptions.url;
}

/**
 * The route PATTERN that handled `req` (a Node.js or a Fastify request; never the raw path, which
 * carries ids), or `unmatched` when no route did (a 404, or a refusal by middleware before
 * routing: 401). Read it when the response finishes.
 */
export function routeTemplateOf(req: object): string {
  return rawRequestOf<{ [ROUTE]?: string }>(req)[ROUTE] ?? 'unmatched';
}
