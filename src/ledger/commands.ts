import type { ReportedError, Resolution } from './events.js';
import type { JsonValue } from './fingerprint.js';
import type { OperationKey } from './operation-key.js';

/** Every command carries `now`: epoch milliseconds of the server's clock (never the caller's). */
interface At {
  readonly now: number;
}

/** Worker commands after the claim carry the fencing token (= the attempt the claim returned). */
interface Fenced extends At {
  readonly fencingToken: number;
}

export interface ClaimOperation extends At {
  readonly type: 'ClaimOperation';
  readonly key: OperationKey;
  readonly operationId: string;
  readonly payload: JsonValue;
  readonly fingerprint: string;
  /** Lease length in ms, within {@link MIN_LEASE_MS}..{@link MAX_LEASE_MS}. */
  readonly leaseMs: number;
  readonly workerId: string | null;
}

export interface StartStep extends Fenced {
  readonly type: 'StartStep';
  readonly step: string;
}

export interface CompleteStep extends Fenced {
  readonly type: 'CompleteStep';
  readonly step: string;
  readonly outputs: JsonValue | null;
}

export interface ConfirmOperation extends Fenced {
  readonly type: 'ConfirmOperation';
  readonly destinationRef: string | null;
  readonly outputs: JsonValue | null;
}

export interface FailOperation extends Fenced {
  readonly type: 'FailOperation';
  readonly error: ReportedError;
  readonly retryable: boolean;
}

export interface ReleaseOperation extends Fenced {
  readonly type: 'ReleaseOperation';
  readonly reason: string | null;
}

export interface ReportUnknownOutcome extends Fenced {
  readonly type: 'ReportUnknownOutcome';
  readonly reason: string;
}

export interface ResolveOperation extends At {
  readonly type: 'ResolveOperation';
  readonly resolution: Resolution;
  readonly destinationRef: string | null;
  readonly reason: string;
  readonly actor: string;
}

export type WorkerCommand =
  StartStep | CompleteStep | ConfirmOperation | FailOperation | ReleaseOperation | ReportUnknownOutcome;

export type LedgerCommand = ClaimOperation | WorkerCommand | ResolveOperation;

/** Shortest lease a claim may ask for, ms. */
export const MIN_LEASE_MS = 1_000;
/** Longest lease a claim may ask for, ms (one hour). */
export const MAX_LEASE_MS = 3_600_000;
/** Lease given when the claim names none, ms. */
export const DEFAULT_LEASE_MS = 30_000;
