import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../common/clock.js';
import type { EventStore } from '../../event-store/event-store.port.js';
import { EVENT_STORE } from '../../event-store/event-store.token.js';
import { fold, operationStreamName } from '../../ledger/index.js';
import { toLedgerEvent } from '../decide-and-append.js';
import { OperationLocator, operationNotFound } from '../operation-locator.js';
import { GetOperationStatusQuery, type OperationStatusResult } from './get-operation-status.query.js';
import { presentStatus } from './status-presenter.js';

/**
 * Folds the decision stream, with `asOf` only up to a revision and/or a time: the state an
 * auditor would have seen then (`not-found` if it did not exist yet).
 * @throws EventStoreUnavailableError.
 */
@QueryHandler(GetOperationStatusQuery)
export class GetOperationStatusHandler implements IQueryHandler<GetOperationStatusQuery> {
  constructor(
    private readonly locator: OperationLocator,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ operationId, caller, asOf }: GetOperationStatusQuery): Promise<OperationStatusResult> {
    const located = await this.locator.locate(operationId, caller);
    if (located.kind === 'not-found') return located;
    const all = await this.store.read(operationStreamName(located.key));
    const events = all.filter(
      (e) =>
        (asOf.revision === undefined || e.streamPosition <= asOf.revision) &&
        (asOf.time === undefined || e.recordedAt.getTime() <= asOf.time.getTime()),
    );
    if (events.length === 0) return operationNotFound(operationId);
    const state = fold(events.map(toLedgerEvent));
    const revision = events[events.length - 1]!.streamPosition;
    const timeTravel = asOf.revision !== undefined || asOf.time !== undefined;
    const now = asOf.time ? asOf.time.getTime() : this.clock.now();
    const status = presentStatus(operationId, state, revision, now);
    if (!timeTravel) return { kind: 'status', status };
    const at = { revision: asOf.revision?.toString() ?? null, time: asOf.time?.toISOString() ?? null };
    return { kind: 'status', status: { ...status, asOf: at } };
  }
}
