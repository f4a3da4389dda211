import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import { CLOCK, type Clock } from '../core/clock.js';
import { OperationLocator } from '../core/operation-locator.js';
import { OperationStreams } from '../core/operation-stream.js';
import { GetOperationStatusQuery } from './get-operation-status.query.js';
import { presentStatus } from './status-presenter.js';

/** Reads the decision stream and folds it. @throws ProblemException 404 `not-found`. */
@QueryHandler(GetOperationStatusQuery)
export class GetOperationStatusHandler implements IQueryHandler<GetOperationStatusQuery> {
  constructor(
    private readonly locator: OperationLocator,
    private readonly streams: OperationStreams,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ operationId }: GetOperationStatusQuery) {
    const key = await this.locator.keyOf(operationId);
    const { state, revision } = await this.streams.load(key);
    if (revision === null)
      throw new ProblemException(problem('not-found', 404, `no operation ${operationId}`));
    return presentStatus(operationId, state, revision, this.clock.now());
  }
}
