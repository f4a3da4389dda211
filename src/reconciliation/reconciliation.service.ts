import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { Caller } from '../auth/index.js';
import type { SqlExecutor, SqlQueryable } from '../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../event-store/sql-executor.token.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { runOptionsOf, sourceLayoutOf } from './http/run-options.js';
import type {
  CreateReconciliationQueryDto,
  SourceUploadQueryDto,
} from './http/reconciliation-queries.dto.js';
import { ReconciliationRunner } from './job/reconciliation-runner.js';
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
  tenantBoundRefusal,
  type StorageBounds,
} from './storage-bounds.js';
import { StorageUnavailableError } from '../event-store/event-store.port.js';
import { destinationRow } from './upload/destination-row.js';
import { ingest, type IngestResult } from './upload/ingest.js';
import { readRecords } from './upload/read-records.js';
import { sourceRow } from './upload/source-row.js';
import { uploadLimitsFromEnv, type UploadLimits } from './upload/upload-limits.js';
import { openUpload, uploadStreamRefusal } from './upload/upload-stream.js';
import type { ReconciliationRun } from './run.js';
import { UploadRefusedError, type UploadRefusal } from './upload-refusal.js';

/** How often a receiving upload renews its run's lease, ms (it lapses after `STALE_HOLDER_S`, sql/run-store.ts). */
const UPLOAD_HEARTBEAT_MS = 5_000;

/** What an upload came to: its run, received (queued or awaiting its source), or the refusal. */
export type UploadOutcome = { readonly kind: 'received'; readonly run: ReconciliationRun } | UploadRefusal;

/**
 * Starting runs: receives the uploads (streamed into the spill tables, see upload/ingest.ts) and
 * queues the run for the background runner. An upload refused as a whole (bad rows, too large,
 * not gzip) leaves nothing behind and comes back as a value, {@link UploadRefusal}, for the
 * controller to answer; one cut off by a restart fails its run (run-store.ts).
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
   * @returns the run, or the refusal: the query, the media type, rows that cannot be read, too
   *   large (also past the tenant's storage bounds), interrupted or abandoned.
   * @throws StorageUnavailableError (503) when the volume has too little room; EventStoreUnavailableError (503).
   */
  async create(
    tenant: string,
    q: CreateReconciliationQueryDto,
    caller: Caller,
    req: IncomingMessage,
  ): Promise<UploadOutcome> {
    const options = runOptionsOf(q);
    if ('kind' in options) return options;
    const apply = q.apply ?? 'none';
    const opened = openUpload(req, this.limits.maxBytes);
    if (opened.kind !== 'opened') return opened;
    const { format, body } = opened;
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
    if (typeof rows !== 'number') return rows;
    const abandoned = await this.received(id, options.awaitSource ? 'awaiting_source' : 'queued', {
      destinationRows: rows,
    });
    if (abandoned) return abandoned;
    this.runner.poke();
    return { kind: 'received', run: (await runStore.byId(this.sql, id))! };
  }

  /**
   * Adds the source intents to a run waiting for them, then queues it.
   * @returns the run, or the refusal: as {@link create}'s, and no such run in the tenant, or one
   *   that does not wait for source intents.
   * @throws StorageUnavailableError; EventStoreUnavailableError.
   */
  async uploadSource(
    tenant: string,
    id: string,
    q: SourceUploadQueryDto,
    req: IncomingMessage,
  ): Promise<UploadOutcome> {
    const run = await runStore.get(this.sql, tenant, id);
    if (!run) return { kind: 'run-not-found', id };
    const layout = sourceLayoutOf(q, tenant, run.action);
    if ('kind' in layout) return layout;
    const opened = openUpload(req, this.limits.maxBytes);
    if (opened.kind !== 'opened') return opened;
    const { format, body } = opened;
    if (
      !(await this.unlessFails(body, () =>
        runStore.transition(this.sql, id, ['awaiting_source'], 'receiving', { holder: this.runner.holder }),
      ))
    ) {
      body.destroy(); // the request's rest is discarded (upload-stream.ts)
      return { kind: 'not-awaiting-source', id, status: run.status };
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
    if (typeof rows !== 'number') return rows;
    const abandoned = await this.received(id, 'queued', { sourceRows: rows });
    if (abandoned) return abandoned;
    this.runner.poke();
    return { kind: 'received', run: (await runStore.byId(this.sql, id))! };
  }

  /**
   * Moves a run whose upload is complete out of `receiving`. A run that is no longer receiving was
   * failed meanwhile as abandoned (its lease lapsed: the database was unreachable for longer than
   * the lease); the upload is then not whole in any run.
   * @returns undefined once moved, else the refusal `upload-abandoned`.
   */
  private async received(
    id: string,
    to: 'queued' | 'awaiting_source',
    rows: { destinationRows?: number; sourceRows?: number },
  ): Promise<UploadRefusal | undefined> {
    if (await runStore.transition(this.sql, id, ['receiving'], to, { ...rows, holder: null }))
      return undefined;
    const run = await runStore.byId(this.sql, id);
    return { kind: 'upload-abandoned', id, status: run?.status ?? null, error: run?.error ?? null };
  }

  /**
   * Writes one batch of an upload once it fits: within the tenant's bounds (counting what its
   * runs keep, this upload's earlier batches included) and with room on the volume; then counts
   * it on the run and extends the upload's lease — in one transaction under the tenant's spill
   * lock, so racing uploads cannot together go past the bound.
   * @throws UploadRefusedError past the tenant's bound (the transaction rolls back); DiskFloorError.
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
      const over = tenantBoundRefusal(tenant, await tenantStorage.kept(tx, tenant), batch, this.bounds);
      if (over) throw new UploadRefusedError(over);
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
   * Runs an upload; when it is refused or fails, removes the run (a destination upload) or its
   * source rows and puts it back to `awaiting_source` (a source upload).
   * @returns the rows received, or the refusal.
   * @throws StorageUnavailableError when the volume ran short of room; errors that are no refusal.
   */
  private async receive(
    id: string,
    upload: () => Promise<IngestResult>,
    source = false,
  ): Promise<number | UploadRefusal> {
    // The lease of a receiving run is its heartbeat; a batch is written only every 2 000 rows, and
    // a slow upload (bytes still coming) must not look abandoned.
    const heartbeat = setInterval(() => {
      void runStore.heartbeat(this.sql, id, this.runner.holder).catch(() => undefined);
    }, UPLOAD_HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const got = await upload();
      if (got.kind === 'ingested') return got.rows;
      await this.discard(id, source);
      return got;
    } catch (err) {
      if (err instanceof DiskFloorError) throw await this.stopForRoom(id, err);
      await this.discard(id, source);
      const refusal = err instanceof UploadRefusedError ? err.refusal : uploadStreamRefusal(err, this.limits);
      if (refusal) return refusal;
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Removes a refused upload: its run (a destination upload), or its rows (a source upload). */
  private async discard(id: string, source: boolean): Promise<void> {
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
