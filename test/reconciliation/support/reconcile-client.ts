import { gzipSync } from 'node:zlib';
import type { TestResponse } from '../../support/http-client.js';
import { waitFor } from '../../projections/support/wait-for.js';

/** Sends uploads and reads reports of the reconciliation API, with one API key. */
export class ReconcileClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  private async send(
    method: string,
    path: string,
    body?: string | Buffer,
    headers: Record<string, string> = {},
  ): Promise<TestResponse> {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...headers },
      body,
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* CSV or empty */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  /** POST …/reconciliations?query with `body` (gzipped when `gzip`). */
  start(tenant: string, query: Record<string, string>, body: string, contentType: string, gzip = false) {
    const qs = new URLSearchParams(query).toString();
    return this.send(
      'POST',
      `/v1/tenants/${tenant}/reconciliations${qs ? `?${qs}` : ''}`,
      gzip ? gzipSync(body) : body,
      { 'content-type': contentType, ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
    );
  }

  /** PUT …/reconciliations/{id}/source?query with the source intents. */
  source(tenant: string, id: string, query: Record<string, string>, body: string, contentType: string) {
    const qs = new URLSearchParams(query).toString();
    return this.send('PUT', `/v1/tenants/${tenant}/reconciliations/${id}/source${qs ? `?${qs}` : ''}`, body, {
      'content-type': contentType,
    });
  }

  get(path: string) {
    return this.send('GET', path);
  }

  /** Waits until run `id` is completed or failed; returns it. */
  finished(tenant: string, id: string, timeoutMs = 60_000) {
    return waitFor(
      async () => {
        const r = await this.get(`/v1/tenants/${tenant}/reconciliations/${id}`);
        return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : null;
      },
      `reconciliation ${id} to finish`,
      timeoutMs,
      50,
    );
  }

  /** Every item of a completed run (all pages). */
  async allItems(tenant: string, id: string, category?: string): Promise<any[]> {
    const items: any[] = [];
    let cursor: string | null = null;
    do {
      const qs = new URLSearchParams({
        limit: '2',
        ...(category ? { category } : {}),
        ...(cursor ? { cursor } : {}),
      });
      const page = await this.get(`/v1/tenants/${tenant}/reconciliations/${id}/items?${qs}`);
      if (page.status !== 200) throw new Error(`items: ${page.status} ${JSON.stringify(page.body)}`);
      items.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    return items;
  }
}
