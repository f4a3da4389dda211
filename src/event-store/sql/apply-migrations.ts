import type { SqlExecutor } from '../sql-executor.js';
import type { Migration } from './migration.js';
import {
  CREATE_MIGRATIONS_TABLE,
  LOCK_SCHEMA,
  RECORD_MIGRATION,
  SELECT_APPLIED_MIGRATIONS,
} from './statements/schema-migrations.js';

export { SCHEMA_LOCK_KEY } from './statements/schema-migrations.js';

/**
 * Applies the `migrations` not yet recorded in `ledger_schema_migrations`, in version order, in ONE
 * transaction that first takes `pg_advisory_xact_lock(SCHEMA_LOCK_KEY)`: two instances starting
 * together apply each migration once (the second waits, then finds it recorded). Idempotent.
 *
 * @returns the versions applied by this call (`[]` when the schema was already current).
 * @throws Error when `migrations` are not strictly increasing from >= 1, or when a recorded
 *   version has a different name than the code's (the database belongs to another schema line).
 */
export async function applyMigrations(
  executor: SqlExecutor,
  migrations: readonly Migration[],
): Promise<number[]> {
  assertOrdered(migrations);
  return executor.transaction(async (tx) => {
    await tx.query(LOCK_SCHEMA);
    await tx.exec(CREATE_MIGRATIONS_TABLE);
    const { rows } = await tx.query<{ version: number; name: string }>(SELECT_APPLIED_MIGRATIONS);
    const recorded = new Map(rows.map((row) => [Number(row.version), row.name]));
    const applied: number[] = [];
    for (const migration of migrations) {
      const name = recorded.get(migration.version);
      if (name !== undefined) {
        if (name !== migration.name) {
          throw new Error(
            `Schema migration ${migration.version} is recorded as "${name}", the code has "${migration.name}"`,
          );
        }
        continue;
      }
      await tx.exec(migration.sql);
      await tx.query(RECORD_MIGRATION, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    return applied;
  });
}

function assertOrdered(migrations: readonly Migration[]): void {
  let previous = 0;
  for (const migration of migrations) {
    if (!Number.isInteger(migration.version) || migration.version <= previous) {
      throw new Error(
        `Schema migrations must have strictly increasing integer versions >= 1 (got ${migration.version} after ${previous})`,
      );
    }
    previous = migration.version;
  }
}
