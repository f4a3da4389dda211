import type { LedgerClient } from '../client.js';

/** What the adapters know of a request, whatever the framework. */
export interface RequestFacts {
  /** Upper case, e.g. `POST`. */
  readonly method: string;
  /** The route template, e.g. `/orders/:id` (not the URL: ids in the path stay out of the key). */
  readonly route: string;
  /** The parsed body (JSON), or undefined. */
  readonly body: unknown;
  /** The raw `Idempotency-Key` header value(s). */
  readonly idempotencyKey: string | readonly string[] | undefined;
}

/**
 * Options of the adapters (`@operation-ledger/client/nestjs`, `/fastify`, `/express`). `Req` is
 * the framework's request. Durations in ms, sizes in bytes.
 */
export interface IdempotencyOptions<Req = unknown> {
  /** The ledger client (its API key needs the `worker` role for the tenants it serves). */
  readonly client: LedgerClient;
  /** The operation key's tenant, from the request (e.g. its authenticated account). */
  readonly tenant: (req: Req) => string | Promise<string>;
  /** The operation key's source. @defaultValue 'http' */
  readonly source?: string;
  /** Methods guarded; others pass untouched. @defaultValue ['POST', 'PATCH'] */
  readonly methods?: readonly string[];
  /** A guarded request without the header is refused 400 (else it runs unguarded). @defaultValue false */
  readonly required?: boolean;
  /**
   * The fingerprint's input: `exclude` lists body fields left out (a top-level name, or an
   * RFC 6901 JSON Pointer such as `/meta/traceId`); a function replaces the default input
   * `{ method, route, body }`. @defaultValue {}
   */
  readonly fingerprint?:
    { readonly exclude?: readonly string[] } | ((req: Req, facts: RequestFacts) => unknown);
  /** Lease of the handler's run, renewed while it runs. @defaultValue 30000 */
  readonly leaseMs?: number;
  /** Largest body recorded; a longer one is recorded without its body. @defaultValue 65536 */
  readonly maxResponseBytes?: number;
  /** Response headers recorded and replayed (lower case). @defaultValue DEFAULT_KEPT_HEADERS */
  readonly keepHeaders?: readonly string[];
  /** A retry while the first request runs waits up to this long, then 409. @defaultValue 0 */
  readonly waitMs?: number;
  /**
   * Longest wait for the ledger's claim (plus `waitMs`), ms: past it the request is answered 503
   * `ledger-unavailable` with Retry-After and the handler does not run, so a ledger that accepts
   * connections but does not answer cannot hold your API for the client's whole retry budget.
   * @defaultValue 5000
   */
  readonly claimTimeoutMs?: number;
  /** In-process cache of confirmed answers; `false` asks the ledger every time. */
  readonly replayCache?: { readonly maxEntries?: number; readonly maxBytes?: number } | false;
  /**
   * The key's expiry in {@link EXPIRY_HEADER}: `'policy'` reads the action's retention policy
   * (`GET /v1/tenants/{tenant}/policies/{action}`, needs the `auditor` or `operator` role; kept a
   * minute), a number of ms states it, `false` sends none. @defaultValue 'policy'
   */
  readonly expiry?: 'policy' | number | false;
}

/** Headers recorded by default: what a client reads of a created resource. */
export const DEFAULT_KEPT_HEADERS: readonly string[] = [
  'content-type',
  'content-language',
  'content-location',
  'location',
  'etag',
  'last-modified',
];

/** The answer header that marks a replay (as Stripe and the ledger's own claims route send it). */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * The answer header with the key's expiry (an HTTP-date, RFC 9110 §5.6.7): after it the ledger
 * may no longer hold the record (its retention policy), as the draft's §2.3 asks a resource to
 * say. Absent when the record is kept forever or the policy cannot be read.
 */
export const EXPIRY_HEADER = 'idempotency-key-expires';
