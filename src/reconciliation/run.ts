import type { ReconciliationRun as WireRun, ReconciliationStatus } from '@operation-ledger/protocol';
import type { Caller } from '../auth/index.js';
import type { ComparedField } from './upload/destination-row.js';

/** How destination references are matched to operations. */
export const MATCH_MODES = ['operationId', 'providerKey', 'subject'] as const;
export type MatchMode = (typeof MATCH_MODES)[number];

/** What a run may change in the ledger beyond recording duplicate effects. */
export const APPLY_MODES = ['none', 'evidence'] as const;
export type ApplyMode = (typeof APPLY_MODES)[number];

/** Lifecycle of a run (docs/reconciliation.md "How it runs"; the protocol's `ReconciliationStatus`). */
export type RunStatus = ReconciliationStatus;

/** The background phases, in order; a run records the one it is in and resumes there. */
export const PHASES = ['snapshot', 'match', 'categorize', 'compare', 'apply', 'totals'] as const;
export type Phase = (typeof PHASES)[number];

/** Options fixed when the run is created (stored as jsonb). */
export interface RunOptions {
  readonly idField: string;
  readonly refField: string;
  readonly refPrefix: string | null;
  readonly compare: readonly ComparedField[];
  readonly awaitSource: boolean;
}

/**
 * One reconciliation run as stored: its id, tenant and scope as the API shows them (the
 * protocol's `ReconciliationRun`), and what the background job needs. Times are ISO 8601 UTC.
 */
export interface ReconciliationRun extends Pick<
  WireRun,
  'id' | 'tenant' | 'action' | 'from' | 'to' | 'match' | 'apply'
> {
  readonly options: RunOptions;
  /** The key that started the run: the background job acts with its rights. */
  readonly createdBy: Caller;
  readonly status: RunStatus;
  readonly phase: Phase | null;
  readonly progress: { readonly done: number; readonly total: number };
  readonly destinationRows: number;
  readonly sourceRows: number | null;
  /** What the run's uploads spilled (rows, bytes of their JSON text), counted against the tenant's bounds. */
  readonly stored: { readonly rows: number; readonly bytes: number };
  readonly totals: unknown;
  /** Global position of the status view the snapshot was taken at (decimal string). */
  readonly checkpoint: string | null;
  readonly error: string | null;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
}
