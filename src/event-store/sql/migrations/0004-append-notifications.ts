import type { Migration } from '../migration.js';

/** Channel on which every commit that appended events is announced (payload empty). */
export const APPENDED_CHANNEL = 'ledger_events_appended';

/**
 * Wake-up signal for catch-up readers (projectors): a statement-level trigger on `ledger_events`
 * calls `pg_notify('ledger_events_appended', '')`. PostgreSQL delivers notifications at commit and
 * folds identical ones of one transaction into one, so an append (or a batch) costs one
 * notification, sent only if it commits. A hint, never data: listeners still read with
 * `ledger_read_all`, and fall back to polling when a notification is lost (e.g. while reconnecting).
 */
export const appendNotificationsMigration: Migration = {
  version: 4,
  name: 'append notifications',
  sql: `
create function ledger_notify_appended() returns trigger
language plpgsql
as $fn$
begin
  perform pg_notify('${APPENDED_CHANNEL}', '');
  return null;
end
$fn$;

create trigger ledger_events_appended
  after insert on ledger_events
  for each statement execute function ledger_notify_appended();
`,
};
