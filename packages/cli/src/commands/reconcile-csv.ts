import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorFromProblem, tenantPath, toProblem } from '@operation-ledger/client';
import type { CommandContext } from '../context.js';

/**
 * Streams `GET /v1/tenants/{tenant}/reconciliation?format=csv` to `file` (`-`: stdout) without
 * holding it in memory, through the client's transport (its auth headers and fetch).
 * @throws LedgerRequestError for a refusal (problem+json), TypeError when unreachable.
 */
export async function exportReconciliationCsv(
  ctx: CommandContext,
  tenant: string,
  filter: { action?: string; from?: string; to?: string },
  file: string,
): Promise<void> {
  const t = ctx.client.transport;
  const path = tenantPath(tenant, '/reconciliation');
  const res = await t.fetch(t.url(path, { ...filter, format: 'csv' }), {
    method: 'GET',
    headers: { ...t.defaultHeaders, accept: 'text/csv' },
    signal: ctx.io.signal,
  });
  if (res.status >= 400 || !res.body) {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    throw errorFromProblem(toProblem(res.status, body), `GET ${path}`, res.headers);
  }
  const source = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
  if (file === '-') {
    for await (const chunk of source) ctx.io.stdout.write(Buffer.from(chunk).toString('utf8'));
    return;
  }
  await pipeline(source, createWriteStream(file));
}
