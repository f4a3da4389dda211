import type { HistoryEventDto, OperationHistoryDto } from './status-answers.dto.js';
import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { EventStore, RecordedEvent } from '../../event-store/event-store.port.js';
import { EVENT_STORE } from '../../event-store/event-store.token.js';
import { auditStreamName, operationStreamName } from '../../ledger/index.js';
import { OperationLocator } from '../operation-locator.js';
import { GetOperationHistoryQuery } from './get-operation-history.query.js';

/**
 * The audit trail of one operation (docs/api.md "Reading one operation"): its decision stream and its companion audit stream,
 * merged in global (commit) order, each event with both positions, the store's timestamp, data
 * and metadata (correlation/causation ids).
 */
@QueryHandler(GetOperationHistoryQuery)
export class GetOperationHistoryHandler implements IQueryHandler<GetOperationHistoryQuery> {
  constructor(
    private readonly locator: OperationLocator,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async execute({ operationId, caller }: GetOperationHistoryQuery): Promise<OperationHistoryDto> {
    const key = await this.locator.keyOf(operationId, caller);
    const streamName = operationStreamName(key);
    const [decisions, audit] = await Promise.all([
      this.store.read(streamName),
      this.store.read(auditStreamName(key)),
    ]);
    const events = [...decisions, ...audit].sort((a, b) =>
      a.globalPosition < b.globalPosition ? -1 : a.globalPosition > b.globalPosition ? 1 : 0,
    );
    return {
      operationId,
      key,
      streamName,
      auditStreamName: auditStreamName(key),
      events: events.map(present),
    };
  }
}

function present(e: RecordedEvent): HistoryEventDto {
  return {
    type: e.type,
    streamName: e.streamName,
    streamPosition: Number(e.streamPosition),
    globalPosition: Number(e.globalPosition),
    recordedAt: e.recordedAt.toISOString(),
    data: e.data,
    metadata: e.metadata,
  };
}
