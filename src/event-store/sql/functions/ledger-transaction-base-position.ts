/**
 * `ledger_transaction_base_position()`: the first global position the current transaction may
 * use, `pg_current_xact_id() << 20` (assigns the transaction id if it has none yet). Global
 * positions are `(64-bit transaction id << 20) + index within the transaction` (migration 1), so
 * global order is transaction-id order.
 */
export const LEDGER_TRANSACTION_BASE_POSITION_FUNCTION = `
create or replace function ledger_transaction_base_position() returns bigint
language sql volatile
as $$ select (pg_current_xact_id()::text::bigint) << 20 $$;
`;
