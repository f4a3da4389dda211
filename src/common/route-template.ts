import { rawRequestOf } from './raw-request.js';

const ROUTE = Symbol('ledger.routeTemplate');

/** What {@link recordRouteTemplate} reads from Fastify's request. */
export interface RoutedRequest {
  readonly raw: object;
  readonly is404?: boolean;
  readonly routeOptions: { readonly url?: string };
}

/**
 * Keeps the route pattern Fastify matched on the Node.js request, for {@link routeTemplateOf}; an
 * `onRequest` hook before the middleware, so requests middleware refused have their route too.
 */
export function recordRouteTemplate(request: RoutedRequest): void {
  if (request.is404 === true || typeof request.routeOptions.url !== 'string') return;
  (request.raw as { [ROUTE]?: string })[ROUTE] = request.routeOptions.url;
}

/** The route pattern that handled `req` (never the raw path, which carries ids), or `unmatched`. */
export function routeTemplateOf(req: object): string {
  return rawRequestOf<{ [ROUTE]?: string }>(req)[ROUTE] ?? 'unmatched';
}
