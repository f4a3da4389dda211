import type { OperationStatusDto } from './status-answers.dto.js';
import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../common/clock.js';
import type { EventStore } from '../../event-store/event-store.port.js';
import { EVENT_STORE } from '../../event-store/event-store.token.js';
import { fold, operationStreamName } from '../../ledger/index.js';
import { toLedgerEvent } from '../decide-and-append.js';
import { OperationLocator, operationNotFound } from '../operation-locator.js';
import { GetOperationStatusQuery } from './get-operation-status.query.js';
import { presentStatus } from './status-presenter.js';

/**
 * Reads the decision stream and folds it — with `asOf`, only the events up to a stream revision
 * (inclusive) and/or recorded at or before a time (the store's clock): the state an auditor would
 * have seen then. An operation that did not exist yet at `asOf` answers 404 as well.
 * @throws ProblemException 404 `not-found`.
 */
@QueryHandler(GetOperationStatusQuery)
export class GetOperationStatusHandler implements IQueryHandler<GetOperationStatusQuery> {
  constructor(
    private readonly locator: OperationLocator,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ operationId, caller, asOf }: GetOperationStatusQuery): Promise<OperationStatusDto> {
    const key = await this.locator.keyOf(operationId, caller);
    const all = await this.store.read(operationStreamName(key));
    const events = all.filter(
      (e) =>
        (asOf.revision === undefined || e.streamPosition <= asOf.revision) &&
        (asOf.time === undefined || e.recordedAt.getTime() <= asOf.time.getTime()),
    );
    if (events.length === 0) throw operationNotFound(operationId);
    const state = fold(events.map(toLedgerEvent));
    const revision = events[events.length - 1]!.streamPosition;
    const timeTravel = asOf.revision !== undefined || asOf.time !== undefined;
    const now = asOf.time ? asOf.time.getTime() : this.clock.now();
    const status = presentStatus(operationId, state, revision, now);
    return timeTravel
      ? {
          ...status,
          asOf: { revision: asOf.revision?.toString() ?? null, time: asOf.time?.toISOString() ?? null },
        }
      : status;
  }
}
