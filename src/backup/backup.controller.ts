import { Controller, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { ALL_TENANTS, type Caller, CurrentCaller, RequireRole } from '../auth/index.js';
import { forbidden, rateLimited } from '../auth/auth-problems.js';
import { ApiProblems } from '../common/openapi/api-problems.decorator.js';
import { problem } from '../common/problem.js';
import { ProblemException } from '../common/problem.exception.js';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';
import { PgliteExecutor } from '../event-store/postgres/pglite-executor.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../event-store/sql-executor.token.js';
import { snapshotDataDir } from './data-dir-snapshot.js';

/**
 * Gzip at level 1 with 4 MiB chunks: at zlib's 16 KiB each chunk is a thread-pool job and an
 * event-loop turn waiting behind requests; higher levels save little on WAL zeros
 * (docs/decisions.md "Embedded store's disk and backup").
 */
const gzipped = (tar: Uint8Array) => promisify(gzip)(tar, { level: 1, chunkSize: 4 * 1024 * 1024 });

/** Response header: global position of the last event in the backup (`-1`: none). */
export const BACKUP_POSITION_HEADER = 'Ledger-Backup-Position';

/**
 * `POST /v1/admin/backup`: the embedded store's data directory as a streamed gzipped tar, taken
 * while it serves (docs/production.md "Backups"). Admin keys for all tenants only; one at a time
 * per process (429); other stores answer 409 `backup-unsupported`.
 */
@ApiTags('admin')
@Controller('v1/admin/backup')
@RequireRole('admin')
export class BackupController {
  #running = false;

  constructor(
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Back up the embedded store (PGlite) while it serves: a gzipped tar of its data directory',
  })
  @ApiProduces('application/gzip')
  @ApiOkResponse({
    description: `The data directory as .tar.gz; header ${BACKUP_POSITION_HEADER}: global position of its last event`,
    schema: { type: 'string', format: 'binary' },
  })
  @ApiProblems('forbidden', 'backup-unsupported', 'rate-limited', 'store-unavailable')
  async backup(@CurrentCaller() caller: Caller, @Res() res: FastifyReply): Promise<void> {
    if (caller.tenant !== ALL_TENANTS) {
      throw forbidden('a backup holds every tenant: it needs an admin key for all tenants (*)');
    }
    if (this.config.store !== 'pglite' || !(this.sql instanceof PgliteExecutor)) {
      throw new ProblemException(
        problem(
          'backup-unsupported',
          409,
          `this ledger keeps its events in ${this.config.store === 'postgres' ? 'PostgreSQL' : 'EventStoreDB'}: back that up with its own tools (PostgreSQL: pg_dump or PITR)`,
        ),
      );
    }
    if (this.#running) throw rateLimited('a backup is being taken: retry when it is done', 5);
    this.#running = true;
    try {
      const snapshot = await snapshotDataDir(this.sql);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      void res.status(200).headers({
        'Content-Type': 'application/gzip',
        'Content-Disposition': `attachment; filename="ledger-backup-${stamp}.tar.gz"`,
        'Cache-Control': 'no-store',
        [BACKUP_POSITION_HEADER]: snapshot.lastPosition,
      });
      await res.send(await gzipped(snapshot.tar));
    } finally {
      this.#running = false;
    }
  }
}
