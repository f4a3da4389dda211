import type { DecisionEvent, LedgerEvent } from './events.js';
import { initialState, type OperationState } from './operation-state.js';
import { unknownCauseOf } from './unknown-cause.js';

/**
 * Applies one decision-stream event to the state (pure; never throws). Audit events
 * (duplicate claims, payload conflicts) do not change the state and are ignored.
 */
export function evolve(state: OperationState, event: LedgerEvent): OperationState {
  const e = event as DecisionEvent;
  const d = e.data;
  const base = { ...state, updatedAt: d.at };
  switch (e.type) {
    case 'OperationClaimed':
      return {
        ...base,
        status: 'in_progress',
        operationId: e.data.operationId,
        key: e.data.key,
        fingerprint: e.data.fingerprint,
        payload: state.payload ?? e.data.payload,
        attempt: e.data.attempt,
        lease: {
          workerId: e.data.workerId,
          attempt: e.data.attempt,
          acquiredAt: Date.parse(e.data.at),
          expiresAt: Date.parse(e.data.leaseExpiresAt),
          ...(e.data.claimRequestId !== undefined ? { claimRequestId: e.data.claimRequestId } : {}),
        },
        lastError: state.lastError,
        retryable: null,
        unknown: null,
        // A resolution closes the Unknown episode of an earlier attempt; a new attempt starts
        // without one (else a later release would pass for "not found" and replays would show it).
        resolution: null,
        createdAt: state.createdAt ?? e.data.at,
      };
    case 'StepStarted':
      return {
        ...base,
        steps: {
          ...state.steps,
          [e.data.step]: {
            name: e.data.step,
            status: 'started',
            attempt: e.data.attempt,
            providerIdempotencyKey: e.data.providerIdempotencyKey,
            startedAt: e.data.at,
            completedAt: null,
            outputs: null,
          },
        },
      };
    case 'StepCompleted': {
      const step = state.steps[e.data.step];
      if (!step) return base;
      return {
        ...base,
        steps: {
          ...state.steps,
          [e.data.step]: { ...step, status: 'completed', completedAt: e.data.at, outputs: e.data.outputs },
        },
      };
    }
    case 'StepNotPerformed': {
      const step = state.steps[e.data.step];
      if (!step) return base;
      return { ...base, steps: { ...state.steps, [e.data.step]: { ...step, status: 'not_performed' } } };
    }
    case 'OperationConfirmed':
      return {
        ...base,
        status: 'confirmed',
        lease: null,
        confirmation: {
          destinationRef: e.data.destinationRef,
          outputs: e.data.outputs,
          at: e.data.at,
          attempt: e.data.attempt,
          via: e.data.source,
        },
      };
    case 'OperationFailed':
      return {
        ...base,
        status: 'failed',
        lease: null,
        lastError: e.data.error,
        retryable: e.data.retryable,
      };
    case 'OperationReleased':
      return { ...base, status: 'released', lease: null };
    case 'OutcomeUnknown':
      return {
        ...base,
        status: 'unknown',
        lease: null,
        unknown: {
          reason: e.data.reason,
          cause: unknownCauseOf(e.data),
          detail: e.data.detail ?? null,
          at: e.data.at,
          attempt: e.data.attempt,
        },
      };
    case 'OperationResolved': {
      const resolution = {
        resolution: e.data.resolution,
        actor: e.data.actor,
        reason: e.data.reason,
        at: e.data.at,
      };
      if (e.data.resolution === 'confirmed') {
        return {
          ...base,
          status: 'confirmed',
          resolution,
          confirmation: {
            destinationRef: e.data.destinationRef,
            outputs: null,
            at: e.data.at,
            attempt: e.data.attempt,
            via: 'operator',
          },
        };
      }
      return {
        ...base,
        status: e.data.resolution === 'not_found' ? 'released' : 'abandoned',
        resolution,
      };
    }
    case 'DuplicateEffectDetected':
      return {
        ...base,
        duplicateEffects: [
          ...state.duplicateEffects,
          { ref: e.data.incomingRef, at: e.data.at, attempt: e.data.reportedByAttempt, acknowledged: false },
        ],
      };
    case 'DestinationReferenceRecorded':
      return state.confirmation
        ? { ...base, confirmation: { ...state.confirmation, destinationRef: e.data.destinationRef } }
        : base;
    case 'DuplicateEffectAcknowledged':
      return {
        ...base,
        duplicateEffects: state.duplicateEffects.map((d) =>
          e.data.refs.includes(d.ref) ? { ...d, acknowledged: true } : d,
        ),
      };
    case 'LeaseRenewed':
      return state.lease
        ? { ...base, lease: { ...state.lease, expiresAt: Date.parse(e.data.leaseExpiresAt) } }
        : base;
    case 'ApprovalRequested':
      return {
        ...base,
        status: 'awaiting_approval',
        operationId: e.data.operationId,
        key: e.data.key,
        fingerprint: e.data.fingerprint,
        payload: e.data.payload,
        createdAt: state.createdAt ?? e.data.at,
      };
    case 'OperationApproved':
    case 'OperationRejected': {
      const decision = e.type === 'OperationApproved' ? 'approved' : 'rejected';
      return {
        ...base,
        status: decision,
        approval: { decision, actor: e.data.actor, reason: e.data.reason, at: e.data.at },
      };
    }
    case 'OperationReplayed':
      return { ...base, status: 'released', retryable: null };
    case 'RecoveryEvidenceSubmitted': {
      const lastEvidence = { verdict: e.data.verdict, actor: e.data.actor, at: e.data.at };
      if (e.data.verdict === 'found') {
        return {
          ...base,
          status: 'confirmed',
          lastEvidence,
          confirmation: {
            destinationRef: e.data.destinationRef,
            outputs: null,
            at: e.data.at,
            attempt: e.data.attempt,
            via: 'recovery',
          },
        };
      }
      if (e.data.verdict === 'not_found') return { ...base, status: 'released', lastEvidence };
      return { ...base, lastEvidence };
    }
    case 'OperationArchived': {
      const snap = e.data.snapshot;
      return {
        ...initialState,
        ...snap,
        operationId: e.data.operationId,
        key: e.data.key,
        attempt: e.data.attempt,
        supersededBy: state.supersededBy,
        archived: { at: e.data.at, afterRetention: e.data.afterRetention },
        updatedAt: snap.updatedAt,
      };
    }
    case 'OperationSuperseded':
      return {
        ...base,
        operationId: state.operationId ?? e.data.operationId,
        key: state.key ?? e.data.key,
        supersededBy: { revision: e.data.byRevision, operationId: e.data.byOperationId, at: e.data.at },
      };
    default:
      return state;
  }
}

/** Folds a stream's events (in stream order) into the operation's state. */
export function fold(events: Iterable<LedgerEvent>): OperationState {
  let state = initialState;
  for (const e of events) state = evolve(state, e);
  return state;
}
