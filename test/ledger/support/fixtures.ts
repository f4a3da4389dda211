/**
 * Fixed test data for the ledger domain: one key, two payloads, a fixed clock, and builders for the
 * events (as `given` history) and the commands (as `when`). Nothing here reads the real clock.
 */
import { createHash } from 'node:crypto';
import {
  operationIdFor,
  payloadFingerprint,
  providerIdempotencyKey,
  type ClaimOperation,
  type ClaimReason,
  type CompleteStep,
  type ConfirmOperation,
  type ConfirmationSource,
  type DuplicateEffectDetected,
  type EventBase,
  type FailOperation,
  type JsonValue,
  type OperationClaimed,
  type OperationConfirmed,
  type OperationFailed,
  type OperationKey,
  type OperationReleased,
  type OperationResolved,
  type OutcomeUnknown,
  type ReleaseOperation,
  type ReportUnknownOutcome,
  type ReportedError,
  type Resolution,
  type ResolveOperation,
  type StartStep,
  type StepCompleted,
  type StepStarted,
  type UnknownReason,
  type UnknownCause,
} from '../../../src/ledger/index.js';

/** Fixed server clock: 2025-01-01T09:00:00.000Z, in epoch ms. */
export const T0 = Date.UTC(2025, 0, 1, 9, 0, 0, 0);
/** T0 plus `s` seconds. */
export const at = (s: number): number => T0 + s * 1000;
export const iso = (ms: number): string => new Date(ms).toISOString();
export const LEASE_MS = 30_000;

export const KEY: OperationKey = {
  tenant: 'acme-gmbh',
  source: 'shopify',
  action: 'invoice.create',
  subject: 'order:812',
  revision: 1,
};
export const OPERATION_ID = operationIdFor(KEY);

export const PAYLOAD: JsonValue = {
  orderId: 812,
  customer: { name: 'Ada', vatId: 'DE123' },
  lines: [
    { sku: 'A-1', qty: 1, price: 9.5 },
    { sku: 'B-2', qty: 2, price: 20 },
  ],
};
export const FP = payloadFingerprint(PAYLOAD);
export const OTHER_PAYLOAD: JsonValue = { ...(PAYLOAD as object), orderId: 813 };
export const OTHER_FP = payloadFingerprint(OTHER_PAYLOAD);

/** The step that calls the destination (an effect) and a preparatory step (no effect). */
export const EFFECT_STEP = 'create-invoice';
export const PREP_STEP = 'render-pdf';
export const pik = (step: string, key: OperationKey = KEY): string => providerIdempotencyKey(key, step);

export const ERROR: ReportedError = { code: 'HTTP_503', message: 'destination unavailable' };

function base(attempt: number, atMs: number): EventBase {
  return { operationId: OPERATION_ID, key: KEY, tenant: KEY.tenant, attempt, at: iso(atMs) };
}

// ---------------------------------------------------------------------------------------------
// Events (history for `given`). They have exactly the shape the deciders produce.
// ---------------------------------------------------------------------------------------------

export function claimed(
  attempt: number,
  atMs: number,
  o: {
    leaseMs?: number;
    workerId?: string | null;
    reason?: ClaimReason;
    payload?: JsonValue | null;
    claimRequestId?: string;
  } = {},
): OperationClaimed {
  const leaseMs = o.leaseMs ?? LEASE_MS;
  return {
    type: 'OperationClaimed',
    data: {
      ...base(attempt, atMs),
      fingerprint: FP,
      payload: o.payload !== undefined ? o.payload : attempt === 1 ? PAYLOAD : null,
      workerId: o.workerId !== undefined ? o.workerId : `worker-${attempt}`,
      leaseMs,
      leaseExpiresAt: iso(atMs + leaseMs),
      reason: o.reason ?? (attempt === 1 ? 'first' : 'after_release'),
      ...(o.claimRequestId !== undefined ? { claimRequestId: o.claimRequestId } : {}),
    },
  };
}

export function stepStarted(step: string, attempt: number, atMs: number): StepStarted {
  return { type: 'StepStarted', data: { ...base(attempt, atMs), step, providerIdempotencyKey: pik(step) } };
}

export function stepCompleted(
  step: string,
  attempt: number,
  atMs: number,
  outputs: JsonValue | null = null,
): StepCompleted {
  return { type: 'StepCompleted', data: { ...base(attempt, atMs), step, outputs } };
}

export function confirmed(
  attempt: number,
  atMs: number,
  destinationRef: string | null,
  o: { outputs?: JsonValue | null; source?: ConfirmationSource; reportedByAttempt?: number } = {},
): OperationConfirmed {
  return {
    type: 'OperationConfirmed',
    data: {
      ...base(attempt, atMs),
      destinationRef,
      outputs: o.outputs ?? null,
      source: o.source ?? 'worker',
      reportedByAttempt: o.reportedByAttempt ?? attempt,
    },
  };
}

export function failed(
  attempt: number,
  atMs: number,
  retryable: boolean,
  error: ReportedError = ERROR,
): OperationFailed {
  return { type: 'OperationFailed', data: { ...base(attempt, atMs), error, retryable } };
}

export function released(attempt: number, atMs: number, reason: string | null = null): OperationReleased {
  return { type: 'OperationReleased', data: { ...base(attempt, atMs), reason } };
}

export function outcomeUnknown(
  attempt: number,
  atMs: number,
  reason: UnknownReason,
  unfinishedSteps: string[],
  detail: string | null = null,
  cause?: UnknownCause,
): OutcomeUnknown {
  return {
    type: 'OutcomeUnknown',
    data: { ...base(attempt, atMs), reason, ...(cause ? { cause } : {}), detail, unfinishedSteps },
  };
}

export function resolved(
  attempt: number,
  atMs: number,
  resolution: Resolution,
  o: { destinationRef?: string | null; reason?: string; actor?: string } = {},
): OperationResolved {
  return {
    type: 'OperationResolved',
    data: {
      ...base(attempt, atMs),
      resolution,
      destinationRef: o.destinationRef ?? null,
      reason: o.reason ?? 'checked the destination',
      actor: o.actor ?? 'ops@acme',
    },
  };
}

export function duplicateEffect(
  attempt: number,
  atMs: number,
  recordedRef: string | null,
  incomingRef: string,
  reportedByAttempt = attempt,
): DuplicateEffectDetected {
  return {
    type: 'DuplicateEffectDetected',
    data: { ...base(attempt, atMs), recordedRef, incomingRef, reportedByAttempt },
  };
}

// ---------------------------------------------------------------------------------------------
// Commands (for `when`). `now` is always an explicit fixed value.
// ---------------------------------------------------------------------------------------------

export function claim(
  now: number,
  o: {
    payload?: JsonValue;
    fingerprint?: string;
    leaseMs?: number;
    workerId?: string | null;
    startStep?: string;
    claimRequestId?: string;
  } = {},
): ClaimOperation {
  const payload = o.payload ?? PAYLOAD;
  return {
    type: 'ClaimOperation',
    now,
    key: KEY,
    operationId: OPERATION_ID,
    payload,
    fingerprint: o.fingerprint ?? payloadFingerprint(payload),
    leaseMs: o.leaseMs ?? LEASE_MS,
    workerId: o.workerId !== undefined ? o.workerId : 'worker-x',
    ...(o.startStep !== undefined ? { startStep: o.startStep } : {}),
    ...(o.claimRequestId !== undefined ? { claimRequestId: o.claimRequestId } : {}),
  };
}

export const startStep = (step: string, fencingToken: number, now: number): StartStep => ({
  type: 'StartStep',
  step,
  fencingToken,
  now,
});

export const completeStep = (
  step: string,
  fencingToken: number,
  now: number,
  outputs: JsonValue | null = null,
): CompleteStep => ({ type: 'CompleteStep', step, fencingToken, now, outputs });

export const confirm = (
  fencingToken: number,
  now: number,
  destinationRef: string | null,
  outputs: JsonValue | null = null,
): ConfirmOperation => ({ type: 'ConfirmOperation', fencingToken, now, destinationRef, outputs });

export const fail = (
  fencingToken: number,
  now: number,
  retryable: boolean,
  error: ReportedError = ERROR,
): FailOperation => ({ type: 'FailOperation', fencingToken, now, retryable, error });

export const release = (
  fencingToken: number,
  now: number,
  reason: string | null = null,
): ReleaseOperation => ({
  type: 'ReleaseOperation',
  fencingToken,
  now,
  reason,
});

export const reportUnknown = (
  fencingToken: number,
  now: number,
  reason = 'timeout after 10s',
): ReportUnknownOutcome => ({
  type: 'ReportUnknownOutcome',
  fencingToken,
  now,
  reason,
});

export const resolve = (
  now: number,
  resolution: Resolution,
  o: { destinationRef?: string | null; reason?: string; actor?: string } = {},
): ResolveOperation => ({
  type: 'ResolveOperation',
  now,
  resolution,
  destinationRef: o.destinationRef ?? null,
  reason: o.reason ?? 'checked the destination',
  actor: o.actor ?? 'ops@acme',
});

// ---------------------------------------------------------------------------------------------
// Named histories (attempt 1 claimed at T0 with a 30 s lease unless noted).
// ---------------------------------------------------------------------------------------------

export const history = {
  inProgress: () => [claimed(1, T0)],
  stepRunning: () => [claimed(1, T0), stepStarted(EFFECT_STEP, 1, at(1))],
  confirmed: (ref: string | null = 'INV-1') => [claimed(1, T0), confirmed(1, at(5), ref)],
  failedRetryable: () => [claimed(1, T0), failed(1, at(5), true)],
  failedFinal: () => [claimed(1, T0), failed(1, at(5), false)],
  released: () => [claimed(1, T0), released(1, at(5), 'not today')],
  unknown: () => [
    claimed(1, T0),
    stepStarted(EFFECT_STEP, 1, at(1)),
    outcomeUnknown(1, at(10), 'reported_timeout', [EFFECT_STEP], 'timeout'),
  ],
  abandoned: () => [...history.unknown(), resolved(1, at(60), 'abandoned', { reason: 'customer cancelled' })],
  resolvedNotFound: () => [...history.unknown(), resolved(1, at(60), 'not_found')],
  resolvedConfirmed: (ref: string | null = 'INV-OP') => [
    ...history.unknown(),
    resolved(1, at(60), 'confirmed', { destinationRef: ref }),
  ],
};

/**
 * Independent UUID v5 (RFC 9562 §5.5) with node:crypto — what a client would compute — to check
 * the implementation against, rather than against itself.
 */
export function referenceUuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(Buffer.from(name, 'utf8')).digest();
  const b = hash.subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
