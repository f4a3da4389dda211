import type { Page } from '@operation-ledger/protocol';
import type { Transport } from './transport.js';

/** `/v1/operations/{id}` with the id encoded. */
export function opPath(operationId: string, rest = ''): string {
  return `/v1/operations/${encodeURIComponent(operationId)}${rest}`;
}

/** `/v1/tenants/{tenant}` with the tenant encoded. */
export function tenantPath(tenant: string, rest = ''): string {
  return `/v1/tenants/${encodeURIComponent(tenant)}${rest}`;
}

export type { Page };

/** `limit` (1..500) and the previous page's `nextCursor`. */
export interface PageOptions {
  readonly limit?: number;
  readonly cursor?: string;
}

/**
 * Every item of a paginated list, page by page, following `nextCursor`.
 * @param fetchPage fetches one page given the cursor (undefined for the first).
 */
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    for (const item of page.items) yield item;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** `GET path?query` → the JSON body. @throws as {@link Transport.request}. */
export async function getJson<T>(
  transport: Transport,
  path: string,
  query?: Record<string, string | number | boolean | undefined>,
): Promise<T> {
  return (await transport.request<T>('GET', path, { query })).body;
}

/** `POST path` with a JSON body → the JSON body. @throws as {@link Transport.request}. */
export async function postJson<T>(
  transport: Transport,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<T> {
  return (await transport.request<T>('POST', path, { body, signal })).body;
}
