import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';
import { checkpointStore, type ProjectionRecord } from './checkpoint-store.js';
import { type ReadModel, tableNames, viewName } from './read-model.js';

/**
 * Classid of the transaction-scoped advisory lock serialising DDL of one read model. Lock order
 * everywhere: the `ledger_projections` row first (FOR UPDATE), then this lock.
 */
const DDL_LOCK_CLASS = 1280331853;

async function lockDdl(tx: SqlQueryable, name: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(${DDL_LOCK_CLASS}, hashtext($1))`, [name]);
}

async function tableExists(sql: SqlQueryable, table: string): Promise<boolean> {
  const { rows } = await sql.query<{ ok: boolean }>('select to_regclass($1) is not null as ok', [table]);
  return rows[0]!.ok === true;
}

/** Points each logical table's view at the tables of `generation` (drop + create: DDL may change). */
async function pointViews(tx: SqlExecutor, model: ReadModel, generation: number): Promise<void> {
  const names = tableNames(model, generation);
  for (const table of model.tables) {
    await tx.exec(
      `drop view if exists ${viewName(table)}; create view ${viewName(table)} as select * from ${names[table]}`,
    );
  }
}

/**
 * Makes sure `model` has its `ledger_projections` row, its live tables (upgraded) and views;
 * idempotent and safe from several processes (an advisory lock per read model).
 */
export async function installReadModel(executor: SqlExecutor, model: ReadModel): Promise<void> {
  await executor.transaction(async (tx) => {
    await tx.query('insert into ledger_projections (name) values ($1) on conflict (name) do nothing', [
      model.name,
    ]);
    const record = await checkpointStore.lock(tx, model.name);
    await lockDdl(tx, model.name);
    const names = tableNames(model, record.generation);
    if (!(await tableExists(tx, names[model.tables[0]!]!))) {
      await tx.exec(model.createTables(names));
      await pointViews(tx, model, record.generation);
      return;
    }
    const upgrade = model.upgradeTables?.(names);
    if (upgrade) await tx.exec(upgrade);
    // Re-pointed when missing or when the upgrade added columns (a view's `*` is fixed at creation).
    if (upgrade || !(await tableExists(tx, viewName(model.tables[0]!)))) {
      await pointViews(tx, model, record.generation);
    }
  });
}

/**
 * Starts an online rebuild of `model` (or returns the running one): empty shadow tables of the
 * next generation, filled by the holder and swapped in when caught up ({@link swapGeneration}).
 * @returns the updated record.
 * @throws Error when the read model is not installed.
 */
export async function requestRebuild(
  executor: SqlExecutor,
  model: ReadModel,
  requestedBy: string,
): Promise<ProjectionRecord> {
  return executor.transaction(async (tx) => {
    const record = await checkpointStore.lock(tx, model.name);
    await lockDdl(tx, model.name);
    if (record.rebuildGeneration !== null) return record;
    const next = record.generation + 1;
    const names = tableNames(model, next);
    for (const table of Object.values(names)) await tx.exec(`drop table if exists ${table}`);
    await tx.exec(model.createTables(names));
    await tx.query(
      `update ledger_projections set rebuild_generation = $2, rebuild_position = -1,
         rebuild_requested_at = now(), rebuild_requested_by = $3 where name = $1`,
      [model.name, next, requestedBy],
    );
    return (await checkpointStore.load(tx, model.name))!;
  });
}

/**
 * Swaps a caught-up rebuild in, in the caller's transaction (holding the row lock): readers see
 * the old tables until the commit, the new ones after it.
 */
export async function swapGeneration(
  tx: SqlExecutor,
  model: ReadModel,
  record: ProjectionRecord,
): Promise<void> {
  const next = record.rebuildGeneration;
  if (next === null) throw new Error(`No rebuild of ${model.name} is in progress`);
  await lockDdl(tx, model.name);
  await pointViews(tx, model, next);
  for (const table of Object.values(tableNames(model, record.generation)))
    await tx.exec(`drop table if exists ${table}`);
  await tx.query(
    `update ledger_projections set generation = $2, rebuild_generation = null, rebuild_position = null,
       rebuild_requested_at = null, rebuild_requested_by = null, last_rebuild_at = now(), updated_at = now()
     where name = $1`,
    [model.name, next],
  );
}
