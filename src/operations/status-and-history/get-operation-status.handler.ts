import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../core/clock.js';
import { OperationLocator, operationNotFound } from '../core/operation-locator.js';
import { OperationStreams } from '../core/operation-stream.js';
import { GetOperationStatusQuery } from './get-operation-status.query.js';
import { presentStatus } from './status-presenter.js';

/**
 * Reads the decision stream and folds it (time travel: up to `asOf`). An operation that did not
 * exist yet at `asOf` answers 404 as well.
 * @throws ProblemException 404 `not-found`.
 */
@QueryHandler(GetOperationStatusQuery)
export class GetOperationStatusHandler implements IQueryHandler<GetOperationStatusQuery> {
  constructor(
    private readonly locator: OperationLocator,
    private readonly streams: OperationStreams,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ operationId, caller, asOf }: GetOperationStatusQuery) {
    const key = await this.locator.keyOf(operationId, caller);
    const { state, revision } = await this.streams.load(key, asOf);
    if (revision === null) throw operationNotFound(operationId);
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
