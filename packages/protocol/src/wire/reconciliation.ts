/** Report categories of a reconciliation (docs/reconciliation.md "Categories"), in report order. */
export const RECONCILIATION_CATEGORIES = [
  'matched',
  'fields_differ',
  'missing_at_destination',
  'duplicate_effect',
  'unknown_found',
  'unconfirmed_found',
  'orphan',
  'never_claimed',
  'not_confirmed',
] as const;
export type ReconciliationCategory = (typeof RECONCILIATION_CATEGORIES)[number];

/** Lifecycle of a run: `receiving` → [`awaiting_source` →] `queued` → `running` → `completed` | `failed`. */
export type ReconciliationStatus =
  'receiving' | 'awaiting_source' | 'queued' | 'running' | 'completed' | 'failed';

/** Counts of a completed run: items per category, per action and category, per write outcome. */
export interface ReconciliationTotals {
  readonly items: number;
  readonly byCategory: Readonly<Record<string, number>>;
  readonly byAction: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly outcomes: Readonly<Record<string, number>>;
}

/** A run as `GET /v1/tenants/{tenant}/reconciliations/{id}` shows it. Times ISO 8601 UTC. */
export interface ReconciliationRun {
  readonly id: string;
  readonly tenant: string;
  readonly action: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly match: 'operationId' | 'providerKey' | 'subject';
  readonly apply: 'none' | 'evidence';
  readonly status: ReconciliationStatus;
  /** The background phase while `running` (`snapshot`, `match`, `categorize`, `compare`, `apply`, `totals`). */
  readonly phase: string | null;
  /** Rows (or items) of the current phase done out of its total. */
  readonly progress: { readonly done: number; readonly total: number };
  readonly destinationRows: number;
  readonly sourceRows: number | null;
  /** The status view's global position the comparison saw (decimal string). */
  readonly checkpoint: string | null;
  /** Only once `completed`: a half report is never shown. */
  readonly totals: ReconciliationTotals | null;
  /** Why a `failed` run failed. */
  readonly error: string | null;
  /** The name of the API key that started the run. */
  readonly createdBy: string;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  readonly links: {
    readonly self: string;
    readonly items: string;
    readonly csv: string;
    readonly source?: string;
  };
  readonly [field: string]: unknown;
}

/** One item of a completed run (`GET …/{id}/items`). */
export interface ReconciliationItem {
  readonly seq: number;
  readonly category: ReconciliationCategory;
  readonly operationId: string | null;
  readonly action: string | null;
  readonly subject: string | null;
  /** The destination's record id. */
  readonly recordId: string | null;
  readonly reference: string | null;
  /** Line of the uploaded file the item comes from. */
  readonly line: number | null;
  readonly state: string | null;
  readonly destinationRef: string | null;
  readonly firstSeen: string | null;
  /** now − first seen, ms (`not_confirmed`). */
  readonly ageMs: number | null;
  /** What the run did: `recorded`, `already_recorded`, `evidence_applied`, `evidence_refused:<code>`, … */
  readonly outcome: string | null;
  readonly detail: Readonly<Record<string, unknown>>;
}
