import { useEffect, useState } from 'preact/hooks';

/**
 * A console route: `#/queue`, `#/operations`, `#/operations/<id>`, `#/conflicts`, `#/metrics`,
 * `#/reconciliations`.
 */
export interface Route {
  readonly page: 'queue' | 'operations' | 'operation' | 'conflicts' | 'metrics' | 'reconciliations';
  readonly id?: string;
}

/**
 * The route in the location's fragment. Hash routes keep every page at `/console/` (the ledger
 * serves one index.html) and never send operation ids to the server in a navigation.
 */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'operations' && parts[1]) return { page: 'operation', id: parts[1] };
  const pages = ['operations', 'conflicts', 'metrics', 'reconciliations'] as const;
  const page = pages.find((p) => p === parts[0]);
  if (page) return { page };
  return { page: 'queue' };
}

/** The href of a route. */
export const href = (route: Route) =>
  route.page === 'operation' ? `#/operations/${encodeURIComponent(route.id ?? '')}` : `#/${route.page}`;

/** The current route, updated on every `hashchange`. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
