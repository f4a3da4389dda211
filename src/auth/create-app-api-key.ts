import type { INestApplicationContext } from '@nestjs/common';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../event-store/sql-executor.token.js';
import type { IssuedApiKey } from './api-key.js';
import type { TenantScope } from './caller.js';
import { createApiKey } from './create-api-key.js';
import type { Role } from './role.js';

/**
 * {@link createApiKey} on the SQL database of an app made by `createLedgerApp`.
 * @throws ApiKeyInputError; EventStoreUnavailableError.
 */
export function createAppApiKey(
  app: INestApplicationContext,
  input: { readonly tenant: TenantScope; readonly roles: readonly Role[]; readonly name: string },
): Promise<IssuedApiKey> {
  return createApiKey(app.get<SqlExecutor>(SQL_EXECUTOR), input, { installSchema: false });
}
