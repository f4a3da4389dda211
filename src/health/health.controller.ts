import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/openapi/api-problems.decorator.js';
import { HealthDto, LiveDto } from './health-answers.dto.js';
import { Public } from '../auth/require-role.decorator.js';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';
import { type EventStore, StorageUnavailableError } from '../event-store/event-store.port.js';
import { EVENT_STORE } from '../event-store/event-store.token.js';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { LEDGER_CAPABILITIES } from '@operation-ledger/protocol';
import { restartWarning } from './restart-warning.js';
import { SQL_EXECUTOR } from '../event-store/sql-executor.token.js';

/**
 * Liveness and readiness. `/health` and `/health/ready` read from the event store, so they turn
 * 503 (problem+json, Retry-After) when it is unreachable — and when the SQL database cannot take
 * writes (`SqlExecutor.storageProblem`: a full disk), with the reason as the detail, e.g.
 * `storage: disk full, 3 MiB free, need 24`. Above the reserve but below what reopening the
 * embedded store needs (`SqlExecutor.freeSpace`), they stay 200 with status `degraded` and a
 * warning: the replica serves, but a restart would refuse to open the data directory
 * (docs/production.md "Disk space"). `/health/live` only says the process runs: it
 * touches no store, so it answers while the disk is full (do not restart a pod for that).
 * `/health` also lists the optional features this ledger accepts (`capabilities`), which
 * clients ask once instead of probing.
 */
@ApiTags('health')
@Controller('health')
@Public()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Ready: the event store answers' })
  @ApiOkResponse({ type: HealthDto })
  @ApiProblems('store-unavailable')
  async health(): Promise<HealthDto> {
    const storage = this.sql.storageProblem?.();
    if (storage) throw new StorageUnavailableError(storage);
    await this.store.read('health-check');
    const warning = restartWarning(await this.sql.freeSpace?.());
    const capabilities = [...LEDGER_CAPABILITIES];
    if (warning) return { status: 'degraded', store: this.config.store, warnings: [warning], capabilities };
    return { status: 'ok', store: this.config.store, capabilities };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Ready: the event store answers' })
  @ApiOkResponse({ type: HealthDto })
  @ApiProblems('store-unavailable')
  ready(): Promise<HealthDto> {
    return this.health();
  }

  @Get('live')
  @ApiOperation({ summary: 'Live: the process runs' })
  @ApiOkResponse({ type: LiveDto })
  live(): LiveDto {
    return { status: 'ok' };
  }
}
