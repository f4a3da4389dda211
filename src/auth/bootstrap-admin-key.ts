import type { LedgerConfig } from '../config/ledger-config.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { parseToken } from './api-key-token.js';
import { ALL_TENANTS } from './caller.js';
import { createApiKey } from './create-api-key.js';
import { countApiKeys, findApiKey } from './sql/api-key-repository.js';
import { tokenMatches } from './secret-hash.js';

/** Advisory lock key serialising first-run key creation between instances ("LedgerKey"). */
const BOOTSTRAP_LOCK_KEY = '7630146953406585';

/** What {@link bootstrapAdminKey} did. */
export type BootstrapOutcome =
  /** A first admin key was created; its token is shown to the operator once. */
  | { readonly kind: 'created'; readonly keyId: string; readonly token: string }
  /** LEDGER_ADMIN_TOKEN was installed (first use) or already present. */
  | { readonly kind: 'from-environment'; readonly keyId: string; readonly installed: boolean }
  /** Keys exist and no LEDGER_ADMIN_TOKEN was given: nothing to do. */
  | { readonly kind: 'existing-keys' };

/**
 * First-run key set-up (docs/security.md "The first key"): LEDGER_ADMIN_TOKEN becomes the admin
 * `*` key, or a new one is created when the key table is empty. Under an advisory lock in one
 * transaction, so instances starting together create one key.
 * @throws Error when LEDGER_ADMIN_TOKEN's id exists with a different secret or is revoked
 *   (a revoked bootstrap token is never revived); EventStoreUnavailableError.
 */
export async function bootstrapAdminKey(sql: SqlExecutor, config: LedgerConfig): Promise<BootstrapOutcome> {
  return sql.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK_KEY})`);
    const roles = ['admin'] as const;
    if (config.adminToken) {
      const parsed = parseToken(config.adminToken);
      if (!parsed) throw new Error('LEDGER_ADMIN_TOKEN is not an olk_<id>_<secret> token');
      const existing = await findApiKey(tx, parsed.id);
      if (existing) {
        if (existing.revokedAt !== null)
          throw new Error(`LEDGER_ADMIN_TOKEN names key ${parsed.id}, which is revoked`);
        if (!tokenMatches(parsed.token, existing.secretHash)) {
          throw new Error(`LEDGER_ADMIN_TOKEN names key ${parsed.id}, whose secret is different (rotated?)`);
        }
        return { kind: 'from-environment', keyId: parsed.id, installed: false };
      }
      await createApiKey(
        tx,
        { tenant: ALL_TENANTS, roles, name: 'admin (LEDGER_ADMIN_TOKEN)' },
        { token: parsed, installSchema: false },
      );
      return { kind: 'from-environment', keyId: parsed.id, installed: true };
    }
    if ((await countApiKeys(tx)) > 0) return { kind: 'existing-keys' };
    const issued = await createApiKey(
      tx,
      { tenant: ALL_TENANTS, roles, name: 'first admin' },
      { installSchema: false },
    );
    return { kind: 'created', keyId: issued.key.id, token: issued.token };
  });
}
