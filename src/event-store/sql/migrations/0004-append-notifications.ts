import { LEDGER_NOTIFY_APPENDED_FUNCTION } from '../functions/ledger-notify-appended.js';
import type { Migration } from '../migration.js';

/**
 * Wake-up signal for catch-up readers (projectors): a statement-level trigger on `ledger_events`
 * calling `ledger_notify_appended()`. PostgreSQL delivers notifications at commit and folds
 * identical ones of one transaction into one. Superseded by migration 6, which drops the trigger.
 */
export const appendNotificationsMigration: Migration = {
  version: 4,
  name: 'append notifications',
  sql: `${LEDGER_NOTIFY_APPENDED_FUNCTION}
create trigger ledger_events_appended
  after insert on ledger_events
  for each statement execute function ledger_notify_appended();
`,
};
