import { requestJson } from '../http-json.js';
import type { OperationKey } from '../intent.js';
import type { LedgerEndpoint } from '../ledger-client.js';

/** One `unknown_outcome` entry of a tenant's review queue (the fields recovery reads). */
export interface UnknownEntry {
  readonly operationId: string;
  readonly key: OperationKey;
  readonly since: string;
  /** Steps started in the attempt whose outcome is unknown, with their provider idempotency keys. */
  readonly startedSteps: readonly { readonly step: string; readonly providerIdempotencyKey: string }[];
}

/** A recovery worker's finding at the destination (`POST /v1/operations/{id}/evidence`). */
export interface Evidence {
  readonly verdict: 'found' | 'not_found' | 'inconclusive';
  readonly destinationRef?: string;
  /** The key fields compared at the destination, with the values seen. */
  readonly checkedFields: Record<string, string | number | boolean | null>;
  readonly note?: string;
}

/** Answer to an evidence submission: accepted, or refused with the problem code. */
export type EvidenceAnswer =
  | { readonly kind: 'accepted'; readonly state: string }
  | { readonly kind: 'refused'; readonly status: number; readonly code: string };

/** Longest review-queue page asked for. */
const PAGE_SIZE = 100;

/**
 * Every `unknown_outcome` entry of a tenant's review queue (`GET /v1/tenants/{tenant}/review-queue
 * ?reason=unknown_outcome`), oldest first, following `nextCursor` page by page. The queue is a
 * projection: an entry may already be settled on its stream — the evidence answer says so.
 * @throws Error on any answer but 200.
 */
export async function* unknownEntries(ledger: LedgerEndpoint, tenant: string): AsyncGenerator<UnknownEntry> {
  const base = `${ledger.url}/v1/tenants/${encodeURIComponent(tenant)}/review-queue?reason=unknown_outcome&limit=${PAGE_SIZE}`;
  let cursor: string | null = null;
  do {
    const url: string = cursor === null ? base : `${base}&cursor=${encodeURIComponent(cursor)}`;
    const res = await requestJson('GET', url, { headers: ledger.headers });
    if (res.status !== 200) throw new Error(`review queue of ${tenant} answered ${res.status}`);
    const page = res.body as { items: Record<string, unknown>[]; nextCursor: string | null };
    for (const item of page.items) {
      yield {
        operationId: String(item.operationId),
        key: item.key as OperationKey,
        since: String(item.since),
        startedSteps: Array.isArray(item.startedSteps)
          ? (item.startedSteps as UnknownEntry['startedSteps'])
          : [],
      };
    }
    cursor = page.nextCursor;
  } while (cursor !== null);
}

/** `POST /v1/operations/{id}/evidence`: found → confirmed, not found → released, inconclusive → stays. */
export async function submitEvidence(
  ledger: LedgerEndpoint,
  operationId: string,
  evidence: Evidence,
): Promise<EvidenceAnswer> {
  const res = await requestJson(
    'POST',
    `${ledger.url}/v1/operations/${encodeURIComponent(operationId)}/evidence`,
    {
      body: evidence,
      headers: ledger.headers,
    },
  );
  const body = (typeof res.body === 'object' && res.body !== null ? res.body : {}) as Record<string, unknown>;
  if (res.status === 200) return { kind: 'accepted', state: String(body.state ?? '') };
  const type = typeof body.type === 'string' ? body.type : '';
  return {
    kind: 'refused',
    status: res.status,
    code: type.split('/').filter(Boolean).pop() ?? `http-${res.status}`,
  };
}
