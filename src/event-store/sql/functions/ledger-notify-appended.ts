import { APPENDED_CHANNEL } from '../statements/notify-appended.js';

/**
 * `ledger_notify_appended()`: trigger function sending `pg_notify('ledger_events_appended', '')`.
 * Installed by migration 4 with a statement-level trigger on `ledger_events`; migration 6 dropped
 * the trigger (a NOTIFY inside the append serialised every commit), so nothing calls it any more.
 * Kept as an artifact because migration 4 still installs it on a fresh database.
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
