import { RECONCILIATION_CATEGORIES, type ReconciliationCategory } from '@operation-ledger/protocol';

/**
 * Report categories (docs/reconciliation.md "Categories"). Destination rows: `matched`,
 * `fields_differ`, `duplicate_effect` (every record after the first for one operation),
 * `unknown_found` (recovery evidence), `unconfirmed_found` (at the destination, while the ledger
 * has the operation in progress / failed / released / abandoned), `orphan`. Ledger operations in
 * the window without a record: `missing_at_destination` (confirmed), `not_confirmed` (any other
 * state, with age). Source intents: `never_claimed`.
 */
export { RECONCILIATION_CATEGORIES as CATEGORIES, type ReconciliationCategory as Category };

/**
 * What a run did about an item (`outcome`): duplicate effects `recorded` / `already_recorded` /
 * `is_confirmed_ref` / `not_confirmed`; evidence `evidence_offered` (apply=none),
 * `evidence_applied`, or `evidence_refused:<problem code>`.
 */
export type ItemOutcome = string;
