import type { SqlExecutor } from '../event-store/sql-executor.js';
import { validateApiKeyInput } from './api-key-input.js';
import { viewOf, type IssuedApiKey } from './api-key.js';
import { generateToken } from './api-key-token.js';
import { hashToken } from './secret-hash.js';
import { insertApiKey } from './sql/api-key-repository.js';
import { installApiKeySchema } from './sql/api-key-schema.js';
import type { TenantScope } from './caller.js';
import type { Role } from './role.js';

/** Options of {@link createApiKey}. */
export interface CreateApiKeyOptions {
  /** Creation time, epoch ms (default: now). */
  readonly now?: number;
  /** Use this token (`olk_<id>_<secret>`, e.g. from LEDGER_ADMIN_TOKEN) instead of a new one. */
  readonly token?: { readonly id: string; readonly token: string };
  /** Install the key table first (idempotent; default true). */
  readonly installSchema?: boolean;
}

/**
 * Creates an API key in the ledger's SQL database and returns it with its token — the only time
 * the token is available. For code that starts the ledger in-process (tests, bench, demo).
 * @throws ApiKeyInputError for a bad tenant, roles or name; EventStoreUnavailableError when the
 *   database is down; the database error (23505) when `options.token`'s id already exists.
 */
export async function createApiKey(
  sql: SqlExecutor,
  input: { readonly tenant: TenantScope; readonly roles: readonly Role[]; readonly name: string },
  options: CreateApiKeyOptions = {},
): Promise<IssuedApiKey> {
  const valid = validateApiKeyInput({ ...input, roles: [...input.roles] });
  if (options.installSchema !== false) await installApiKeySchema(sql);
  const now = options.now ?? Date.now();
  const { id, token } = options.token ?? generateToken();
  const record = await insertApiKey(sql, { id, ...valid, secretHash: hashToken(token), createdAt: now });
  return { key: viewOf(record, now), token };
}
