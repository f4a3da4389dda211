import { setTimeout as sleep } from 'node:timers/promises';
import { requestJson, type JsonResponse } from './http-json.js';
import type { Json, OperationKey } from './intent.js';

/** A refusal or error answer of the ledger, reduced to what a worker switches on. */
export interface LedgerRefusal {
  readonly kind: 'refused';
  readonly status: number;
  /** Problem code: the last segment of `type` (docs/api.md#problem-details), e.g. `stale-token`. */
  readonly code: string;
  readonly detail: string;
}

/** Answers of `POST /v1/claims`. */
export type ClaimAnswer =
  | {
      readonly kind: 'acquired';
      readonly operationId: string;
      readonly attempt: number;
      readonly fencingToken: number;
      readonly leaseExpiresAt: string;
      readonly fingerprint: string;
    }
  | {
      readonly kind: 'replayed';
      readonly operationId: string;
      readonly state: 'confirmed' | 'failed' | 'abandoned';
      readonly outcome: { readonly destinationRef?: string | null } & Record<string, unknown>;
    }
  | { readonly kind: 'in-progress'; readonly retryAfterMs: number }
  | { readonly kind: 'awaiting-recovery' }
  | {
      readonly kind: 'payload-conflict';
      readonly existingFingerprint: string | null;
      readonly incomingFingerprint: string | null;
    }
  | LedgerRefusal;

/** A fenced worker command's answer: accepted (with the body) or refused. */
export type CommandAnswer<T> = ({ readonly kind: 'ok' } & T) | LedgerRefusal;

/** Resolution an operator (or a recovery bot) records for an Unknown operation. */
export interface Resolution {
  readonly resolution: 'confirmed' | 'not_found' | 'abandoned';
  readonly destinationRef?: string;
  readonly reason: string;
  readonly actor: string;
}

/** `GET /v1/operations/{id}`: the status folded from the stream (only the fields the demo reads). */
export interface OperationStatus {
  readonly operationId: string;
  readonly key: OperationKey;
  readonly state: string;
  readonly attempt: number;
  readonly destinationRef: string | null;
  readonly [field: string]: unknown;
}

/** One event of `GET /v1/operations/{id}/history`. */
export interface HistoryEvent {
  readonly type: string;
  readonly streamPosition: number | string;
  readonly globalPosition: number | string;
  readonly recordedAt: string;
  readonly data: Record<string, unknown>;
  readonly metadata: Record<string, unknown>;
}

/** `GET /v1/operations/{id}/history`. */
export interface OperationHistory {
  readonly operationId: string;
  readonly streamName: string;
  readonly events: readonly HistoryEvent[];
}

/** Where the ledger is and how to talk to it. */
export interface LedgerEndpoint {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no `/v1`). */
  readonly url: string;
  /** Extra headers for every request (e.g. `authorization`), if the ledger wants them. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** How often a 503 (`store-unavailable`) is retried after its Retry-After before giving up. */
const UNAVAILABLE_RETRIES = 3;
const MAX_UNAVAILABLE_WAIT_MS = 1_000;

/**
 * A minimal client of the ledger's HTTP contract (docs/api.md), written against the
 * routes only — no server code. Every method returns the contract's answers as a discriminated
 * union; nothing but transport failures throws.
 */
export class LedgerClient {
  private readonly base: string;

  constructor(private readonly endpoint: LedgerEndpoint) {
    this.base = endpoint.url.replace(/\/+$/, '');
  }

  /** The public URL of an operation's audit history. */
  historyUrl(operationId: string): string {
    return `${this.base}/v1/operations/${encodeURIComponent(operationId)}/history`;
  }

  /** `POST /v1/claims`: claim an operation by its business key before doing its effect. */
  async claim(request: {
    key: OperationKey;
    payload: Json;
    leaseMs?: number;
    workerId?: string;
  }): Promise<ClaimAnswer> {
    const res = await this.send('POST', '/v1/claims', request);
    const body = asRecord(res.body);
    if (res.status === 201) {
      return {
        kind: 'acquired',
        operationId: String(body.operationId),
        attempt: Number(body.attempt),
        fencingToken: Number(body.fencingToken),
        leaseExpiresAt: String(body.leaseExpiresAt),
        fingerprint: String(body.fingerprint),
      };
    }
    if (res.status === 200) {
      return {
        kind: 'replayed',
        operationId: String(body.operationId),
        state: body.state as 'confirmed' | 'failed' | 'abandoned',
        outcome: asRecord(body.outcome),
      };
    }
    const refusal = toRefusal(res);
    if (res.status === 409 && refusal.code === 'in-progress') {
      return { kind: 'in-progress', retryAfterMs: retryAfterMs(res) };
    }
    if (res.status === 409 && refusal.code === 'awaiting-recovery') return { kind: 'awaiting-recovery' };
    if (res.status === 422 && refusal.code === 'payload-conflict') {
      return {
        kind: 'payload-conflict',
        existingFingerprint: optionalString(body.existingFingerprint),
        incomingFingerprint: optionalString(body.incomingFingerprint),
      };
    }
    return refusal;
  }

  /** `POST …/steps/{step}/start`: record that an external call is about to be made. */
  async startStep(
    operationId: string,
    step: string,
    fencingToken: number,
  ): Promise<CommandAnswer<{ providerIdempotencyKey: string }>> {
    const res = await this.send('POST', `${opPath(operationId)}/steps/${encodeURIComponent(step)}/start`, {
      fencingToken,
    });
    if (res.status !== 200) return toRefusal(res);
    return { kind: 'ok', providerIdempotencyKey: String(asRecord(res.body).providerIdempotencyKey) };
  }

  /** `POST …/confirm`: the effect happened; record its destination reference. */
  async confirm(
    operationId: string,
    request: { fencingToken: number; destinationRef?: string; outputs?: Json },
  ): Promise<CommandAnswer<{ state: string }>> {
    const res = await this.send('POST', `${opPath(operationId)}/confirm`, request);
    if (res.status !== 200) return toRefusal(res);
    return { kind: 'ok', state: String(asRecord(res.body).state ?? 'confirmed') };
  }

  /** `POST …/fail`: the effect did not happen (a final failure once a step was started). */
  async fail(
    operationId: string,
    request: { fencingToken: number; error: { code: string; message: string }; retryable: boolean },
  ): Promise<CommandAnswer<object>> {
    const res = await this.send('POST', `${opPath(operationId)}/fail`, request);
    return res.status === 200 ? { kind: 'ok' } : toRefusal(res);
  }

  /** `POST …/unknown`: the outcome is uncertain (e.g. the destination call timed out). */
  async reportUnknown(
    operationId: string,
    request: { fencingToken: number; reason: string },
  ): Promise<CommandAnswer<{ state: string }>> {
    const res = await this.send('POST', `${opPath(operationId)}/unknown`, request);
    if (res.status !== 200) return toRefusal(res);
    return { kind: 'ok', state: String(asRecord(res.body).state ?? 'unknown') };
  }

  /** `POST …/resolve`: an operator's (or recovery bot's) verdict on an Unknown operation. */
  async resolve(operationId: string, resolution: Resolution): Promise<CommandAnswer<object>> {
    const res = await this.send('POST', `${opPath(operationId)}/resolve`, resolution);
    return res.status === 200 ? { kind: 'ok', ...asRecord(res.body) } : toRefusal(res);
  }

  /** `GET /v1/operations/{id}`: the folded status, or null when the ledger does not know the id. */
  async getOperation(operationId: string): Promise<OperationStatus | null> {
    const res = await this.send('GET', opPath(operationId));
    if (res.status === 404) return null;
    if (res.status !== 200) throw unexpected(res, 'GET operation');
    return res.body as OperationStatus;
  }

  /** `GET /v1/operations/{id}/history`: every event of the operation, decision and audit. */
  async getHistory(operationId: string): Promise<OperationHistory> {
    const res = await this.send('GET', `${opPath(operationId)}/history`);
    if (res.status !== 200) throw unexpected(res, 'GET history');
    return res.body as OperationHistory;
  }

  private async send(method: string, path: string, body?: unknown): Promise<JsonResponse> {
    for (let attempt = 0; ; attempt++) {
      const res = await requestJson(method, this.base + path, { body, headers: this.endpoint.headers });
      if (res.status !== 503 || attempt >= UNAVAILABLE_RETRIES) return res;
      await sleep(Math.min(retryAfterMs(res), MAX_UNAVAILABLE_WAIT_MS));
    }
  }
}

function opPath(operationId: string): string {
  return `/v1/operations/${encodeURIComponent(operationId)}`;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The problem code of an error answer: last segment of `type`, else `code`, else `http-<status>`. */
function toRefusal(res: JsonResponse): LedgerRefusal {
  const body = asRecord(res.body);
  const fromType = typeof body.type === 'string' ? body.type.split('/').filter(Boolean).pop() : undefined;
  const code = fromType ?? (typeof body.code === 'string' ? body.code : `http-${res.status}`);
  const detail = typeof body.detail === 'string' ? body.detail : '';
  return { kind: 'refused', status: res.status, code, detail };
}

/**
 * How long to wait before retrying: the problem body's `retryAfterMs` when the server adds one
 * (finer than the header), else the `Retry-After` header in seconds, else one second.
 */
function retryAfterMs(res: JsonResponse): number {
  const fromBody = asRecord(res.body).retryAfterMs;
  if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) return fromBody;
  const header = res.headers.get('retry-after');
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000;
}

function unexpected(res: JsonResponse, what: string): Error {
  const refusal = toRefusal(res);
  return new Error(`${what}: unexpected ${res.status} ${refusal.code} ${refusal.detail}`.trim());
}
