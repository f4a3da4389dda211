import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { Caller } from '../auth/index.js';
import { problem } from '../common/problem.js';
import { ProblemException } from '../common/problem.exception.js';
import type { SqlExecutor, SqlQueryable } from '../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../event-store/sql-executor.token.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { runOptionsOf, sourceLayoutOf } from './http/run-options.js';
import type {
  CreateReconciliationQueryDto,
  SourceUploadQueryDto,
} from './http/reconciliation-queries.dto.js';
import { ReconciliationRunner } from './job/reconciliation-runner.js';
import type { ReconciliationRun } from './run.js';
import { runStore } from './sql/run-store.js';
import {
  encodeDestinationRows,
  encodeSourceRows,
  spillDestinationRows,
  spillSourceRows,
} from './sql/spill-rows.js';
import { tenantStorage } from './sql/tenant-storage.js';
import {
  DiskFloorError,
  diskFloorReason,
  storageBoundsFromEnv,
  tenantBoundProblem,
  type StorageBounds,
} from './storage-bounds.js';
import { StorageUnavailableError } from '../event-store/event-store.port.js';
import { destinationRow } from './upload/destination-row.js';
import { ingest } from './upload/ingest.js';
import { readRecords } from './upload/read-records.js';
import { sourceRow } from './upload/source-row.js';
import { uploadLimitsFromEnv, type UploadLimits } from './upload/upload-limits.js';
import { openUpload, uploadStreamProblem } from './upload/upload-stream.js';

/** How often a receiving upload renews its run's lease, ms (it lapses after `STALE_HOLDER_S`, sql/run-store.ts). */
const UPLOAD_HEARTBEAT_MS = 5_000;

/** 404 `not-found` for a run id that does not exist in the tenant (or exists in another). */
export function runNotFound(id: string): ProblemException {
  return new ProblemException(problem('not-found', 404, `no reconciliation ${id} in this tenant`));
}

/**
 * Starting runs: receives the uploads (streamed into the spill tables, see upload/ingest.ts) and
 * queues the run for the background runner. An upload refused as a whole (bad rows, too large,
 * not gzip) leaves nothing behind; one cut off by a restart fails its run (run-store.ts).
 */
@Injectable()
export class ReconciliationService {
  private readonly limits: UploadLimits = uploadLimitsFromEnv();
  private readonly bounds: StorageBounds = storageBoundsFromEnv();

  constructor(
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runner: ReconciliationRunner,
  ) {}

  /**
   * Creates a run from the destination export in `req`'s body and queues it (or leaves it
   * `awaiting_source`). The route needs the operator role (auditors stay read-only).
   * @throws ProblemException 400/403/413/415/422 (413 also past the tenant's storage bounds);
   *   StorageUnavailableError (503) when the volume has too little room; EventStoreUnavailableError (503).
   */
  async create(
    tenant: string,
    q: CreateReconciliationQueryDto,
    caller: Caller,
    req: IncomingMessage,
  ): Promise<ReconciliationRun> {
    const options = runOptionsOf(q);
    const apply = q.apply ?? 'none';
    const { format, body } = openUpload(req, this.limits.maxBytes);
    const id = randomUUID();
    await this.unlessFails(body, () =>
      runStore.create(this.sql, {
        id,
        tenant,
        action: q.action ?? null,
        from: q.from ?? null,
        to: q.to ?? null,
        match: q.match ?? 'operationId',
        apply,
        options,
        createdBy: caller,
        holder: this.runner.holder,
        now: this.clock.now(),
      }),
    );
    const rows = await this.receive(id, () =>
      ingest(
        readRecords(body, format, this.limits.maxRecordBytes),
        (record) => destinationRow(record, options, this.limits.maxCellChars, format),
        (batch) =>
          this.spill(tenant, id, batch.length, encodeDestinationRows(batch), (tx, encoded) =>
            spillDestinationRows(tx, id, encoded),
          ),
        this.limits,
        'destination export',
      ),
    );
    await this.received(id, options.awaitSource ? 'awaiting_source' : 'queued', { destinationRows: rows });
    this.runner.poke();
    return (await runStore.byId(this.sql, id))!;
  }

  /**
   * Adds the source intents to a run waiting for them, then queues it.
   * @throws ProblemException 404, 409 `not-awaiting-source`, 400/413/415/422; EventStoreUnavailableError.
   */
  async uploadSource(
    tenant: string,
    id: string,
    q: SourceUploadQueryDto,
    req: IncomingMessage,
  ): Promise<ReconciliationRun> {
    const run = await runStore.get(this.sql, tenant, id);
    if (!run) throw runNotFound(id);
    const layout = sourceLayoutOf(q, tenant, run.action);
    const { format, body } = openUpload(req, this.limits.maxBytes);
    if (
      !(await this.unlessFails(body, () =>
        runStore.transition(this.sql, id, ['awaiting_source'], 'receiving', { holder: this.runner.holder }),
      ))
    ) {
      body.destroy(); // the request's rest is discarded (upload-stream.ts)
      throw new ProblemException(
        problem(
          'not-awaiting-source',
          409,
          `reconciliation ${id} is ${run.status}; source intents are taken only while it is awaiting_source (create it with awaitSource=true)`,
          {
            title: 'The reconciliation does not wait for source intents',
          },
        ),
      );
    }
    const rows = await this.receive(
      id,
      () =>
        ingest(
          readRecords(body, format, this.limits.maxRecordBytes),
          (record) => sourceRow(record, layout, this.limits.maxCellChars),
          (batch) =>
            this.spill(tenant, id, batch.length, encodeSourceRows(batch), (tx, encoded) =>
              spillSourceRows(tx, id, encoded),
            ),
          this.limits,
          'source intents upload',
        ),
      true,
    );
    await this.received(id, 'queued', { sourceRows: rows });
    this.runner.poke();
    return (await runStore.byId(this.sql, id))!;
  }

  /**
   * Moves a run whose upload is complete out of `receiving`. A run that is no longer receiving was
   * failed meanwhile as abandoned (its lease lapsed: the database was unreachable for longer than
   * the lease); the upload is then not whole in any run.
   * @throws ProblemException 409 `upload-abandoned`.
   */
  private async received(
    id: string,
    to: 'queued' | 'awaiting_source',
    rows: { destinationRows?: number; sourceRows?: number },
  ): Promise<void> {
    if (await runStore.transition(this.sql, id, ['receiving'], to, { ...rows, holder: null })) return;
    const run = await runStore.byId(this.sql, id);
    throw new ProblemException(
      problem(
        'upload-abandoned',
        409,
        `reconciliation ${id} was ${run?.status ?? 'removed'} while its upload came in${run?.error ? ` (${run.error})` : ''}; upload the file again`,
      ),
    );
  }

  /**
   * Writes one batch of an upload once it fits: within the tenant's bounds (counting what its
   * runs keep, this upload's earlier batches included) and with room on the volume; then counts
   * it on the run and extends the upload's lease — in one transaction under the tenant's spill
   * lock, so racing uploads cannot together go past the bound.
   * @throws ProblemException 413 naming the bound; DiskFloorError.
   */
  private async spill(
    tenant: string,
    id: string,
    rows: number,
    encoded: string,
    write: (tx: SqlQueryable, encoded: string) => Promise<void>,
  ): Promise<void> {
    const batch = { rows, bytes: Buffer.byteLength(encoded) };
    await this.sql.transaction(async (tx) => {
      await tenantStorage.lock(tx, tenant);
      const over = tenantBoundProblem(tenant, await tenantStorage.kept(tx, tenant), batch, this.bounds);
      if (over) throw over;
      const low = diskFloorReason(await this.sql.freeSpace?.(), this.bounds.diskHeadroomBytes);
      if (low) throw new DiskFloorError(low);
      await write(tx, encoded);
      await tenantStorage.add(tx, id, this.runner.holder, batch);
    });
  }

  /** Runs `step` before the upload is read; when it fails, stops the upload (its rest is discarded). */
  private async unlessFails<T>(body: Readable, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (err) {
      body.destroy();
      throw err;
    }
  }

  /**
   * Runs an upload; when it fails, removes the run (a destination upload) or its source rows and
   * puts it back to `awaiting_source` (a source upload), then answers the problem.
   */
  private async receive(id: string, upload: () => Promise<number>, source = false): Promise<number> {
    // The lease of a receiving run is its heartbeat; a batch is written only every 2 000 rows, and
    // a slow upload (bytes still coming) must not look abandoned.
    const heartbeat = setInterval(() => {
      void runStore.heartbeat(this.sql, id, this.runner.holder).catch(() => undefined);
    }, UPLOAD_HEARTBEAT_MS);
    heartbeat.unref();
    try {
      return await upload();
    } catch (err) {
      if (err instanceof DiskFloorError) throw await this.stopForRoom(id, err);
      try {
        if (source) {
          await this.sql.query('delete from ledger_recon_source_rows where recon_id = $1', [id]);
          await runStore.transition(this.sql, id, ['receiving'], 'awaiting_source', { holder: null });
        } else {
          await runStore.remove(this.sql, id);
        }
      } catch {
        // the store is down: the stale-upload check fails the run once it is back
      }
      throw uploadStreamProblem(err, this.limits) ?? err;
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * An upload stopped for want of room: its run is failed with the reason (the sweep removes its
   * rows in chunks, sql/remove-rows.ts) and the upload answers 503 with `Retry-After`.
   */
  private async stopForRoom(id: string, err: DiskFloorError): Promise<StorageUnavailableError> {
    const error = `the upload was stopped: ${err.message}; nothing of it is kept, upload it again once there is room`;
    await runStore
      .transition(this.sql, id, ['receiving'], 'failed', { error, holder: null })
      .catch(() => undefined); // the store is down: the stale-upload check fails the run once it is back
    return new StorageUnavailableError(error, err);
  }
}
