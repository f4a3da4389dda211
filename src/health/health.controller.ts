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
 * Liveness and readiness (docs/production.md "Health probes"): `/health` and `/health/ready`
 * turn 503 when the store is unreachable or cannot take writes, `degraded` when a restart could
 * not reopen it (docs/production.md "Disk space"); `/health/live` touches no store.
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
