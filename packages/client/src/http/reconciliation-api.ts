import { LedgerUnavailableError } from '../errors.js';
import { errorFromProblem, toProblem } from '../problem.js';
import { getJson, tenantPath, type PageOptions } from './routes.js';
import {
  type ReconciliationCategory,
  type ReconciliationStatus,
  type ReconciliationRun,
  type ReconciliationOptions,
  type SourceIntentOptions,
  type ReconciliationUpload,
  type ReconciliationItemsPage,
} from './reconciliation-types.js';
import { sleep, type Transport } from './transport.js';

export * from './reconciliation-types.js';
const FINISHED: readonly ReconciliationStatus[] = ['completed', 'failed'];

/**
 * The reconciliation routes (docs/reconciliation.md): upload a destination export (and source
 * intents), follow the run, read its report. Roles: uploads need operator of the tenant;
 * following runs and reading reports, operator or auditor. Reached as `ledger.reconciliation`
 * (or `new ReconciliationApi(transport)`).
 *
 * Uploads are streamed (`duplex: 'half'`) and sent once, never retried: a stream cannot be sent
 * twice, and a cut upload leaves a failed run, so the caller decides whether to start a new one.
 */
export class ReconciliationApi {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /v1/tenants/{tenant}/reconciliations` with the destination export as the body; the
   * ledger answers 202 with the run (`queued`, or `awaiting_source` with `awaitSource`).
   * @throws LedgerRequestError 400 (a parameter, named), 403, 413, 415, 422 `invalid-upload`
   *   (rows named `rows[line].column`); LedgerUnavailableError when unreachable or 503.
   */
  start(
    tenant: string,
    upload: ReconciliationUpload,
    options: ReconciliationOptions = {},
  ): Promise<ReconciliationRun> {
    const { awaitSource, ...rest } = options;
    const query = { ...rest, awaitSource: awaitSource === undefined ? undefined : String(awaitSource) };
    return this.upload('POST', tenantPath(tenant, '/reconciliations'), query, upload);
  }

  /**
   * `PUT …/reconciliations/{id}/source`: the source intents of a run created with
   * `awaitSource`; queues the run.
   * @throws LedgerRequestError 409 `not-awaiting-source`, 404, 413, 415, 422; LedgerUnavailableError.
   */
  uploadSource(
    tenant: string,
    id: string,
    upload: ReconciliationUpload,
    options: SourceIntentOptions = {},
  ): Promise<ReconciliationRun> {
    const path = tenantPath(tenant, `/reconciliations/${encodeURIComponent(id)}/source`);
    return this.upload('PUT', path, { ...options }, upload);
  }

  /** `GET /v1/tenants/{tenant}/reconciliations`: the latest runs, newest first (`limit` ≤ 100). */
  list(
    tenant: string,
    options: { limit?: number } = {},
  ): Promise<{ tenant: string; items: ReconciliationRun[] }> {
    return getJson(this.transport, tenantPath(tenant, '/reconciliations'), { limit: options.limit });
  }

  /** `GET …/reconciliations/{id}`: status, phase, progress, and totals once completed (404 `not-found`). */
  get(tenant: string, id: string): Promise<ReconciliationRun> {
    return getJson(this.transport, tenantPath(tenant, `/reconciliations/${encodeURIComponent(id)}`));
  }

  /**
   * Polls {@link get} every `intervalMs` (default 500) until the run is `completed`
   * or `failed` (or waits for its source: `awaiting_source` is returned too) and returns it;
   * `onProgress` sees every answer.
   * @throws the signal's reason when aborted; LedgerUnavailableError (after the transport's retries).
   */
  async wait(
    tenant: string,
    id: string,
    options: {
      intervalMs?: number;
      signal?: AbortSignal;
      onProgress?: (run: ReconciliationRun) => void;
    } = {},
  ): Promise<ReconciliationRun> {
    for (;;) {
      options.signal?.throwIfAborted();
      const run = await this.get(tenant, id);
      options.onProgress?.(run);
      if (FINISHED.includes(run.status) || run.status === 'awaiting_source') return run;
      await sleep(options.intervalMs ?? 500, options.signal);
    }
  }

  /**
   * `GET …/{id}/items`: one page of a completed run's items (`limit` ≤ 500, `cursor` = the
   * previous `nextCursor`), optionally of one category.
   * @throws LedgerRequestError 409 `reconciliation-not-complete` / `reconciliation-failed`, 404.
   */
  items(
    tenant: string,
    id: string,
    filter: PageOptions & { category?: ReconciliationCategory } = {},
  ): Promise<ReconciliationItemsPage> {
    return getJson(this.transport, tenantPath(tenant, `/reconciliations/${encodeURIComponent(id)}/items`), {
      ...filter,
    });
  }

  /**
   * `GET …/{id}/items?format=csv`: every item (or one category) as CSV, as the response's byte
   * stream — read it to a file without holding it in memory.
   * @throws as {@link items}; LedgerUnavailableError when unreachable.
   */
  async itemsCsv(
    tenant: string,
    id: string,
    options: { category?: ReconciliationCategory; signal?: AbortSignal } = {},
  ): Promise<ReadableStream<Uint8Array>> {
    const t = this.transport;
    const path = tenantPath(tenant, `/reconciliations/${encodeURIComponent(id)}/items`);
    const label = `GET ${path}`;
    const res = await this.send(label, options.signal, () =>
      t.fetch(t.url(path, { category: options.category, format: 'csv' }), {
        method: 'GET',
        headers: { ...t.defaultHeaders, accept: 'text/csv, application/problem+json' },
        signal: options.signal,
      }),
    );
    if (res.status >= 400 || !res.body) await refusal(label, res);
    return res.body as ReadableStream<Uint8Array>;
  }

  private async upload(
    method: 'POST' | 'PUT',
    path: string,
    query: Record<string, string | undefined>,
    upload: ReconciliationUpload,
  ): Promise<ReconciliationRun> {
    const t = this.transport;
    const label = `${method} ${path}`;
    const headers: Record<string, string> = { ...t.defaultHeaders, 'content-type': upload.contentType };
    if (upload.gzip) headers['content-encoding'] = 'gzip';
    const init = { method, headers, body: upload.body, duplex: 'half', signal: upload.signal };
    // Node's fetch (undici) streams a ReadableStream or an async iterable with duplex 'half'.
    const res = await this.send(label, upload.signal, () =>
      t.fetch(t.url(path, query), init as RequestInit),
    ).catch((err: unknown) => {
      discard(upload.body);
      throw err;
    });
    if (res.status >= 400) {
      discard(upload.body); // refused before reading it all (401, 403, 413…): stop reading the file
      await refusal(label, res);
    }
    return (await res.json()) as ReconciliationRun;
  }

  /** One fetch, not retried; a network failure becomes LedgerUnavailableError. */
  private async send(label: string, signal: AbortSignal | undefined, go: () => Promise<Response>) {
    try {
      return await go();
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      throw new LedgerUnavailableError(label, 1, null, err);
    }
  }
}

/** Stops reading an upload's body the ledger will not take (a Node stream or a web stream). */
function discard(body: ReconciliationUpload['body']): void {
  const b = body as { destroy?: () => void; cancel?: () => Promise<void>; locked?: boolean };
  if (typeof b.destroy === 'function') b.destroy();
  else if (typeof b.cancel === 'function' && !b.locked) b.cancel().catch(() => undefined);
}

/** Throws the typed error of a refusal (503 → LedgerUnavailableError, as the transport does). */
async function refusal(label: string, res: Response): Promise<never> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the text is the detail */
  }
  const error = errorFromProblem(toProblem(res.status, body), label, res.headers);
  if (res.status === 503) throw new LedgerUnavailableError(label, 1, 503, error);
  throw error;
}
