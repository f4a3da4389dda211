import type { SqlExecutor } from '../../../src/event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../../../src/event-store/sql-executor.token.js';
import type { LedgerClient } from '../../support/http-client.js';
import type { TestLedger } from '../../support/test-ledger.js';

let seq = 0;

/** A fresh operation key of `tenant` (unique subject per call). */
export function freshKey(tenant: string, label = 'op') {
  return {
    tenant,
    source: 'auth-test',
    action: 'invoice.create',
    subject: `${label}-${++seq}-${Date.now()}`,
  };
}

/** Events in the store, decision and audit streams alike (a refused request must not change it). */
export async function eventCount(ledger: TestLedger): Promise<number> {
  const sql = ledger.app.get<SqlExecutor>(SQL_EXECUTOR);
  const { rows } = await sql.query<{ n: number }>('select count(*)::int as n from ledger_events');
  return Number(rows[0]!.n);
}

/** API keys in the store. */
export async function keyCount(ledger: TestLedger): Promise<number> {
  const sql = ledger.app.get<SqlExecutor>(SQL_EXECUTOR);
  const { rows } = await sql.query<{ n: number }>('select count(*)::int as n from ledger_api_keys');
  return Number(rows[0]!.n);
}

/** Claims a fresh operation of `tenant` with `client` (root by default); returns its id. */
export async function claimed(client: LedgerClient, tenant: string): Promise<string> {
  const res = await client.claim(freshKey(tenant), { n: 1 });
  if (res.status !== 201) throw new Error(`setup claim ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.operationId;
}
