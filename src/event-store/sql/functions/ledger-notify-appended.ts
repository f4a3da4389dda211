import { APPENDED_CHANNEL } from '../statements/notify-appended.js';

/**
 * `ledger_notify_appended()`: trigger function sending `pg_notify('ledger_events_appended', '')`.
 * Unused since migration 6 dropped its trigger; kept because migration 4 still installs it.
 */
export const LEDGER_NOTIFY_APPENDED_FUNCTION = `
create or replace function ledger_notify_appended() returns trigger
language plpgsql
as $fn$
begin
  perform pg_notify('${APPENDED_CHANNEL}', '');
  return null;
end
$fn$;
`;
