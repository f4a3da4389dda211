import { RECONCILIATION_CATEGORIES, type ReconciliationCategory } from '@operation-ledger/protocol';

/** Report categories (docs/reconciliation.md "Categories"). */
export { RECONCILIATION_CATEGORIES as CATEGORIES, type ReconciliationCategory as Category };

/**
 * What a run did about an item (`outcome`): duplicate effects `recorded` / `already_recorded` /
 * `is_confirmed_ref` / `not_confirmed`; evidence `evidence_offered` (apply=none),
 * `evidence_applied`, or `evidence_refused:<problem code>`.
 */
export type ItemOutcome = string;
