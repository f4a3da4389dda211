import { randomUUID } from 'node:crypto';
import { ANY, type AppendRequest, type EventToAppend } from '../../../src/event-store/event-store.port.js';
import {
  auditStreamName,
  operationIdFor,
  operationStreamName,
  payloadFingerprint,
  providerIdempotencyKey,
  type JsonValue,
  type OperationKey,
} from '../../../src/ledger/index.js';

/** Every kind of operation history the seeder writes; together they use every projected event type. */
export const LIFECYCLES = [
  'confirmed',
  'retried',
  'unknown-open',
  'unknown-resolved',
  'failed-final',
  'in-progress',
  'released',
  'duplicate-effect',
  'conflict',
  'late-confirmation',
  'reported-timeout',
  'confirmed-no-ref',
  'reference-recorded',
  'approved',
  'rejected',
  'awaiting-approval',
  'replayed',
  'acknowledged',
  'evidence-found',
  'evidence-not-found',
  'evidence-inconclusive',
  'superseded',
  'archived',
] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

const BASE = Date.parse('2026-03-01T00:00:00Z');

/** Tenants and actions the seeder spreads operations over. */
export const TENANTS = ['acme-gmbh', 'globex-ag'];
export const ACTIONS = ['invoice.create', 'crm.sync', 'mail.receipt'];

/** The ordered appends (one request per entry) of one operation's history. */
export function lifecycleAppends(tag: string, index: number, lifecycle: Lifecycle): AppendRequest[] {
  const key: OperationKey = {
    tenant: TENANTS[index % TENANTS.length]!,
    source: 'shopify',
    action: ACTIONS[Math.floor(index / TENANTS.length) % ACTIONS.length]!,
    subject: `order:${tag}-${index}`,
    revision: 1,
  };
  const operationId = operationIdFor(key);
  const payload: JsonValue = {
    order: key.subject,
    total: index % 97,
    lines: [{ sku: 'A', qty: 1 + (index % 3) }],
  };
  const fingerprint = payloadFingerprint(payload);
  let t = BASE + index * 37 * 60_000;
  const at = () => new Date((t += 45_000)).toISOString();
  const base = (attempt: number) => ({ operationId, key, tenant: key.tenant, attempt, at: at() });
  const out: AppendRequest[] = [];
  const decide = (type: string, data: object) => out.push(request(operationStreamName(key), type, data));
  const audit = (type: string, data: object) => out.push(request(auditStreamName(key), type, data));
  const claim = (attempt: number, reason: string) => {
    const b = base(attempt);
    decide('OperationClaimed', {
      ...b,
      fingerprint,
      payload: attempt === 1 ? payload : null,
      workerId: `w-${index % 5}`,
      leaseMs: 30_000,
      leaseExpiresAt: new Date(Date.parse(b.at) + 30_000).toISOString(),
      reason,
    });
  };
  const start = (attempt: number, step: string) =>
    decide('StepStarted', {
      ...base(attempt),
      step,
      providerIdempotencyKey: providerIdempotencyKey(key, step),
    });
  const confirm = (attempt: number, ref: string | null, source = 'worker') =>
    decide('OperationConfirmed', {
      ...base(attempt),
      destinationRef: ref,
      outputs: null,
      source,
      reportedByAttempt: attempt,
    });
  const unknown = (attempt: number, reason: string, steps: string[]) =>
    decide('OutcomeUnknown', { ...base(attempt), reason, detail: null, unfinishedSteps: steps });
  const duplicate = (attempt: number, answer: string, state: string) =>
    audit('DuplicateClaimPrevented', { ...base(attempt), fingerprint, workerId: 'w-dup', answer, state });
  /** A coalesced record of `count` duplicates of one window (docs/domain.md "Audit of duplicate claims"). */
  const duplicates = (attempt: number, answer: string, state: string, count: number) => {
    const first = base(attempt);
    audit('DuplicateClaimPrevented', {
      ...first,
      fingerprint,
      workerId: 'w-dup',
      answer,
      state,
      count,
      firstAt: first.at,
      lastAt: at(),
    });
  };

  const operator = (type: string, attempt: number, extra: object = {}) =>
    decide(type, { ...base(attempt), actor: 'ops:eva', reason: 'reviewed', ...extra });
  const evidence = (verdict: string) =>
    decide('RecoveryEvidenceSubmitted', {
      ...base(1),
      verdict,
      destinationRef: verdict === 'found' ? `REC-${index}` : null,
      checkedFields: { order: key.subject },
      actor: 'recovery-bot',
      note: null,
    });

  if (lifecycle === 'approved' || lifecycle === 'rejected' || lifecycle === 'awaiting-approval') {
    decide('ApprovalRequested', {
      ...base(0),
      fingerprint,
      payload,
      workerId: `w-${index % 5}`,
      policyVersion: 1,
    });
    if (lifecycle === 'awaiting-approval') return out;
    operator(lifecycle === 'approved' ? 'OperationApproved' : 'OperationRejected', 0);
    if (lifecycle === 'rejected') return out;
  }
  claim(1, 'first');
  switch (lifecycle) {
    case 'approved':
      confirm(1, `REC-${index}`);
      break;
    case 'replayed':
      decide('OperationFailed', {
        ...base(1),
        error: { code: 'rejected', message: 'fixed upstream' },
        retryable: false,
      });
      operator('OperationReplayed', 1);
      claim(2, 'after_release');
      confirm(2, `REC-${index}`);
      break;
    case 'acknowledged':
      confirm(1, `REC-${index}`);
      decide('DuplicateEffectDetected', {
        ...base(1),
        recordedRef: `REC-${index}`,
        incomingRef: `REC-${index}-B`,
        reportedByAttempt: 1,
      });
      operator('DuplicateEffectAcknowledged', 1, { refs: [`REC-${index}-B`] });
      break;
    case 'evidence-found':
    case 'evidence-not-found':
    case 'evidence-inconclusive':
      start(1, 'dispatch');
      unknown(1, 'lease_expired', ['dispatch']);
      evidence(lifecycle.slice('evidence-'.length).replace('-', '_'));
      break;
    case 'archived': {
      confirm(1, `REC-${index}`);
      const b = base(1);
      const confirmation = {
        destinationRef: `REC-${index}`,
        outputs: null,
        at: b.at,
        attempt: 1,
        via: 'worker',
      };
      const snapshot = {
        status: 'confirmed',
        fingerprint,
        confirmation,
        lastError: null,
        retryable: null,
        createdAt: b.at,
        updatedAt: b.at,
      };
      decide('OperationArchived', { ...b, snapshot, retentionMs: 86_400_000, afterRetention: 'tombstone' });
      break;
    }
    case 'superseded':
      confirm(1, `REC-${index}`);
      decide('OperationSuperseded', {
        ...base(1),
        byRevision: 2,
        byOperationId: operationIdFor({ ...key, revision: 2 }),
      });
      break;
    case 'confirmed':
      start(1, 'create');
      decide('StepCompleted', { ...base(1), step: 'create', outputs: { id: index } });
      confirm(1, `REC-${index}`);
      duplicate(1, 'replayed', 'confirmed');
      duplicates(1, 'replayed', 'confirmed', 2 + (index % 4));
      break;
    case 'retried':
      // The first attempt's step never left (a refused connection): not performed, then retryable.
      start(1, 'create');
      decide('StepNotPerformed', { ...base(1), step: 'create', reason: 'connect ECONNREFUSED' });
      decide('OperationFailed', {
        ...base(1),
        error: { code: 'timeout', message: 'try again' },
        retryable: true,
      });
      claim(2, 'after_retryable_failure');
      start(2, 'create');
      confirm(2, `REC-${index}`);
      break;
    case 'unknown-open':
      start(1, 'dispatch');
      unknown(1, 'lease_expired', ['dispatch']);
      duplicate(1, 'awaiting_recovery', 'unknown');
      break;
    case 'unknown-resolved': {
      start(1, 'dispatch');
      unknown(1, 'lease_expired', ['dispatch']);
      const resolution = (['confirmed', 'not_found', 'abandoned'] as const)[index % 3]!;
      decide('OperationResolved', {
        ...base(1),
        resolution,
        destinationRef: resolution === 'confirmed' ? `REC-${index}` : null,
        reason: 'checked at destination',
        actor: 'ops:eva',
      });
      break;
    }
    case 'failed-final':
      decide('OperationFailed', {
        ...base(1),
        error: { code: 'rejected', message: 'invalid VAT id' },
        retryable: false,
      });
      break;
    case 'in-progress':
      decide('LeaseRenewed', {
        ...base(1),
        leaseMs: 30_000,
        leaseExpiresAt: new Date(t + 60_000).toISOString(),
      });
      duplicate(1, 'in_progress', 'in_progress');
      break;
    case 'released':
      decide('OperationReleased', { ...base(1), reason: 'shutdown' });
      claim(2, 'after_release');
      confirm(2, null);
      break;
    case 'duplicate-effect':
      start(1, 'create');
      confirm(1, `REC-${index}`);
      decide('DuplicateEffectDetected', {
        ...base(1),
        recordedRef: `REC-${index}`,
        incomingRef: `REC-${index}-B`,
        reportedByAttempt: 1,
      });
      break;
    case 'conflict':
      confirm(1, `REC-${index}`);
      audit('PayloadConflictDetected', {
        ...base(1),
        existingFingerprint: fingerprint,
        incomingFingerprint: payloadFingerprint({ ...(payload as object), total: -1 }),
        incomingPayload: { ...(payload as object), total: -1 },
        workerId: 'w-late',
      });
      break;
    case 'late-confirmation':
      start(1, 'dispatch');
      unknown(1, 'lease_expired', ['dispatch']);
      confirm(1, `REC-${index}`, 'late_confirmation');
      break;
    case 'reported-timeout':
      start(1, 'dispatch');
      unknown(1, 'reported_timeout', ['dispatch']);
      break;
    case 'confirmed-no-ref':
      confirm(1, null);
      break;
    case 'reference-recorded':
      // an operator confirmed without a reference, and recorded it later
      start(1, 'dispatch');
      unknown(1, 'reported_timeout', ['dispatch']);
      decide('OperationResolved', {
        ...base(1),
        resolution: 'confirmed',
        destinationRef: null,
        reason: 'seen at the destination, number unknown',
        actor: 'ops:eva',
      });
      decide('DestinationReferenceRecorded', {
        ...base(1),
        destinationRef: `REC-${index}`,
        source: 'operator',
        actor: 'ops:eva',
        reason: 'looked it up',
        reportedByAttempt: null,
      });
      break;
  }
  return out;
}

function request(streamName: string, type: string, data: object): AppendRequest {
  const event: EventToAppend = {
    id: randomUUID(),
    type,
    data: data as Record<string, unknown>,
    metadata: { seeded: true },
  };
  return { streamName, events: [event], expectedRevision: ANY };
}

/** The lifecycle of operation `index` (every kind appears once in each run of LIFECYCLES.length indexes). */
export function lifecycleOf(index: number): Lifecycle {
  return LIFECYCLES[index % LIFECYCLES.length]!;
}
