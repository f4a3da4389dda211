import { ApiEventStream } from '../../common/openapi/api-event-stream.decorator.js';
import { ApiProblems } from '../../common/openapi/api-problems.decorator.js';
import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller, RequireRole, SseConnectionLimiter } from '../../auth/index.js';
import { ApiKeyService } from '../../auth/api-key.service.js';
import { validationProblem } from '../../common/validation.js';
import { LEDGER_CONFIG } from '../../config/config.token.js';
import type { LedgerConfig } from '../../config/ledger-config.js';
import { CONFLICTS_FEED } from '../conflicts/conflicts-read-model.js';
import { checkpointStore } from '../core/checkpoint-store.js';
import { stableJson } from '../core/stable-json.js';
import { EVENT_ID_MESSAGE, isEventId } from '../http/dto/event-id.js';
import { readableTenant } from '../http/tenant-param.js';
import { METRICS_FEED } from '../outcome-counters/metrics-read-model.js';
import { OPERATIONS_FEED, REVIEW_FEED } from '../operation-views/operations-read-model.js';
import { ProjectionRuntime } from '../projection-runtime.js';
import {
  OperationChangesQueryDto,
  ReviewChangesQueryDto,
  SubscriptionQueryDto,
} from '../http/dto/subscription-queries.dto.js';
import { ChangeHub } from './change-hub.js';
import { type ChangeFilter, changeFilter } from './change-filters.js';
import { KeyRevocationWatch } from './key-revocation-watch.js';
import { SseSession } from './sse-session.js';
import { subscriptionRefusalProblem } from './subscriptions-http-answer.js';

/**
 * Live subscriptions (Server-Sent Events) to read-model changes of one tenant (docs/api.md
 * "Subscriptions"), capped per key (429) and per process (503), ended once the key is revoked.
 */
@ApiTags('subscriptions')
@Controller('v1/tenants/:tenant')
export class SubscriptionsController {
  private readonly revocations: KeyRevocationWatch;

  constructor(
    private readonly runtime: ProjectionRuntime,
    private readonly hub: ChangeHub,
    private readonly limiter: SseConnectionLimiter,
    keys: ApiKeyService,
    @Inject(LEDGER_CONFIG) config: LedgerConfig,
  ) {
    this.revocations = new KeyRevocationWatch(async (id) => {
      const key = await keys.find(id);
      return key !== null && key.revokedAt === null;
    }, config.sseKeyRecheckMs);
  }

  @Get('operations/changes')
  @RequireRole('auditor', 'operator')
  @ApiOperation({
    summary: 'Status changes (SSE `operation` events), filtered by state, action, source, subject prefix',
  })
  @ApiEventStream('`operation` events, each a status row as GET …/operations lists it')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this event id' })
  @ApiProblems('forbidden-tenant', 'too-many-subscriptions')
  operations(
    @Param('tenant') tenant: string,
    @Query() q: OperationChangesQueryDto,
    @CurrentCaller() caller: Caller,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ) {
    const { lastEventId: _l, ...filter } = q;
    return this.open('operations', OPERATIONS_FEED, tenant, q.lastEventId, filter, caller, req, res);
  }

  @Get('review-queue/changes')
  @RequireRole('auditor', 'operator')
  @ApiOperation({
    summary: 'Review-queue changes (SSE `review` events: added, updated, removed), by reason and action',
  })
  @ApiEventStream('`review` events { change: added | updated | removed, … } of review-queue items')
  @ApiHeader({ name: 'Last-Event-ID', required: false })
  @ApiProblems('forbidden-tenant', 'too-many-subscriptions')
  reviewQueue(
    @Param('tenant') tenant: string,
    @Query() q: ReviewChangesQueryDto,
    @CurrentCaller() caller: Caller,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ) {
    return this.open(
      'operations',
      REVIEW_FEED,
      tenant,
      q.lastEventId,
      { action: q.action, reason: q.reason },
      caller,
      req,
      res,
    );
  }

  @Get('metrics/changes')
  @RequireRole('auditor', 'operator')
  @ApiOperation({ summary: 'Metrics updates (SSE `metrics` events with the new hour and day counters)' })
  @ApiEventStream('`metrics` events with the new hour and day counters')
  @ApiHeader({ name: 'Last-Event-ID', required: false })
  @ApiProblems('forbidden-tenant', 'too-many-subscriptions')
  metrics(
    @Param('tenant') tenant: string,
    @Query() q: SubscriptionQueryDto,
    @CurrentCaller() caller: Caller,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ) {
    return this.open('metrics', METRICS_FEED, tenant, q.lastEventId, { action: q.action }, caller, req, res);
  }

  @Get('conflicts/changes')
  @RequireRole('auditor', 'operator')
  @ApiOperation({ summary: 'New payload conflicts (SSE `conflict` events)' })
  @ApiEventStream('`conflict` events, each a conflict as GET …/conflicts lists it')
  @ApiHeader({ name: 'Last-Event-ID', required: false })
  @ApiProblems('forbidden-tenant', 'too-many-subscriptions')
  conflicts(
    @Param('tenant') tenant: string,
    @Query() q: SubscriptionQueryDto,
    @CurrentCaller() caller: Caller,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ) {
    return this.open(
      'conflicts',
      CONFLICTS_FEED,
      tenant,
      q.lastEventId,
      { action: q.action },
      caller,
      req,
      res,
    );
  }

  private async open(
    projection: string,
    feed: string,
    tenant: string,
    lastEventIdQuery: string | undefined,
    filter: ChangeFilter,
    caller: Caller,
    req: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    readableTenant(caller, tenant);
    const sent = req.headers['last-event-id'];
    const header = Array.isArray(sent) ? sent.join(',') : sent;
    if (header !== undefined && !isEventId(header.trim())) {
      throw validationProblem([
        {
          field: 'Last-Event-ID',
          message: `Last-Event-ID ${EVENT_ID_MESSAGE}`,
        },
      ]);
    }
    const lastEventId = header !== undefined ? header.trim() : lastEventIdQuery;
    const record = await checkpointStore.load(this.runtime.db.executor, projection);
    const model = this.runtime.model(projection);
    if (!record || !model) throw new Error(`Read model ${projection} is not installed`);
    const acquired = this.limiter.acquire(caller);
    if (acquired.kind === 'refused') throw subscriptionRefusalProblem(acquired);
    const { lease } = acquired;
    const admitted = this.hub.admit();
    if (admitted.kind === 'full') {
      lease.release();
      throw subscriptionRefusalProblem(admitted);
    }
    const { slot } = admitted;
    reply.hijack(); // the session writes the stream to the Node.js response
    const session: SseSession = new SseSession({
      res: reply.raw,
      projection,
      feed,
      tenant,
      after: lastEventId !== undefined ? BigInt(lastEventId) : record.position,
      resumed: lastEventId !== undefined,
      checkpoint: record.position,
      prunedThrough: record.changesPrunedThrough,
      filter: changeFilter(filter),
      filterKey: stableJson(filter),
      onClose: () => {
        unwatch();
        lease.release();
        slot.release();
        this.hub.remove(session);
      },
    });
    const unwatch =
      caller.keyId === 'anonymous'
        ? () => undefined
        : this.revocations.watch(caller.keyId, () => session.close());
    await session.start(); // pipelined behind other answers, it starts when they are sent
    this.hub.add(session, record.position);
  }
}
