import { ApiProblems } from '../../common/openapi/api-problems.decorator.js';
import { ConflictsDto, MetricsDto, ReviewQueueDto, StatusListDto } from './dto/read-model-answers.dto.js';
import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Caller, CurrentCaller, RequireRole } from '../../auth/index.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { queryConflicts } from '../conflicts/conflicts-queries.js';
import { metricsBuckets, metricsTotals } from '../outcome-counters/metrics-queries.js';
import { queryReviewQueue, summarizeReviewQueue } from '../operation-views/review-queue-queries.js';
import { queryStatus } from '../operation-views/status-queries.js';
import { ProjectionRuntime } from '../projection-runtime.js';
import { cursorInstant, cursorPosition, cursorUuid, decodeCursor, encodeCursor } from './cursor.js';
import { DEFAULT_PAGE_SIZE } from './dto/page-query.dto.js';
import { decodeStatusCursor, encodeStatusCursor } from './status-cursor.js';
import {
  ConflictsQueryDto,
  ListOperationsQueryDto,
  MetricsQueryDto,
  ReviewQueueQueryDto,
} from './dto/read-model-queries.dto.js';
import { assertTimeRange } from './dto/time-filters.js';
import { readableTenant } from './tenant-param.js';

/** Tenant-scoped read models (docs/api.md "Read models"). */
@ApiTags('read models')
@Controller('v1/tenants/:tenant')
export class ReadModelsController {
  constructor(
    private readonly runtime: ProjectionRuntime,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private get sql() {
    return this.runtime.db.executor;
  }

  @Get('operations')
  @RequireRole('auditor', 'operator')
  @ApiOperation({ summary: 'Status view: one row per operation, filtered, newest change first' })
  @ApiOkResponse({ type: StatusListDto })
  @ApiProblems('forbidden-tenant')
  async operations(
    @Param('tenant') tenant: string,
    @Query() q: ListOperationsQueryDto,
    @CurrentCaller() caller: Caller,
  ): Promise<StatusListDto> {
    readableTenant(caller, tenant);
    const freshness = await this.runtime.freshnessOf('operations');
    const order = q.order ?? 'desc';
    const page = await queryStatus(this.sql, {
      tenant,
      state: q.state,
      action: q.action,
      source: q.source,
      subjectPrefix: q.subjectPrefix,
      changedSince: q.changedSince,
      order,
      limit: q.limit ?? DEFAULT_PAGE_SIZE,
      after: decodeStatusCursor(q.cursor, order),
    });
    return { tenant, ...freshness, items: page.items, nextCursor: encodeStatusCursor(page.next) };
  }

  @Get('review-queue')
  @RequireRole('auditor', 'operator')
  @ApiOperation({
    summary: 'Operations awaiting a human, oldest first, with age, steps, keys and lease history',
  })
  @ApiOkResponse({ type: ReviewQueueDto })
  @ApiProblems('forbidden-tenant')
  async reviewQueue(
    @Param('tenant') tenant: string,
    @Query() q: ReviewQueueQueryDto,
    @CurrentCaller() caller: Caller,
  ): Promise<ReviewQueueDto> {
    readableTenant(caller, tenant);
    const freshness = await this.runtime.freshnessOf('operations');
    const after = decodeCursor(q.cursor, 3);
    if (after) {
      cursorInstant(after[0]!);
      cursorUuid(after[1]!);
    }
    const page = await queryReviewQueue(this.sql, {
      tenant,
      reason: q.reason,
      action: q.action,
      limit: q.limit ?? DEFAULT_PAGE_SIZE,
      after,
      now: this.clock.now(),
    });
    return {
      tenant,
      ...freshness,
      summary: await summarizeReviewQueue(this.sql, tenant, q.action),
      items: page.items,
      nextCursor: page.last === null ? null : encodeCursor(page.last),
    };
  }

  @Get('conflicts')
  @RequireRole('auditor', 'operator')
  @ApiOperation({ summary: 'Payload conflicts: key, both fingerprints, when, worker, field-level diff' })
  @ApiOkResponse({ type: ConflictsDto })
  @ApiProblems('forbidden-tenant')
  async conflicts(
    @Param('tenant') tenant: string,
    @Query() q: ConflictsQueryDto,
    @CurrentCaller() caller: Caller,
  ): Promise<ConflictsDto> {
    readableTenant(caller, tenant);
    const freshness = await this.runtime.freshnessOf('conflicts');
    const after = decodeCursor(q.cursor, 1)?.[0];
    const page = await queryConflicts(this.sql, {
      tenant,
      action: q.action,
      since: q.since,
      limit: q.limit ?? DEFAULT_PAGE_SIZE,
      after: after === undefined ? undefined : cursorPosition(after),
    });
    return {
      tenant,
      ...freshness,
      items: page.items,
      nextCursor: page.last === null ? null : encodeCursor([page.last]),
    };
  }

  @Get('metrics')
  @RequireRole('auditor', 'operator')
  @ApiOperation({ summary: 'Duplicate-prevented counters per action and hour/day bucket, with totals' })
  @ApiOkResponse({ type: MetricsDto })
  @ApiProblems('forbidden-tenant')
  async metrics(
    @Param('tenant') tenant: string,
    @Query() q: MetricsQueryDto,
    @CurrentCaller() caller: Caller,
  ): Promise<MetricsDto> {
    readableTenant(caller, tenant);
    assertTimeRange(q.from, q.to);
    const freshness = await this.runtime.freshnessOf('metrics');
    const scope = { tenant, bucket: q.bucket ?? 'day', action: q.action, from: q.from, to: q.to } as const;
    const after = decodeCursor(q.cursor, 2);
    if (after) cursorInstant(after[0]!);
    const { totals, byAction } = await metricsTotals(this.sql, scope);
    const page = await metricsBuckets(this.sql, scope, q.limit ?? DEFAULT_PAGE_SIZE, after);
    return {
      tenant,
      ...freshness,
      bucket: scope.bucket,
      from: q.from ?? null,
      to: q.to ?? null,
      totals,
      byAction,
      buckets: page.buckets,
      nextCursor: page.last === null ? null : encodeCursor(page.last),
    };
  }
}
