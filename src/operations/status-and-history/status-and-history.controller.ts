import { Controller, Get, Param, Query, Res, UseInterceptors } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { OperationHistoryDto, OperationStatusDto } from './status-answers.dto.js';
import { type Caller } from '../../auth/caller.js';
import { CurrentCaller } from '../../auth/current-caller.decorator.js';
import { RequireRole } from '../../auth/require-role.decorator.js';
import { validationProblem } from '../../common/validation.js';
import { operationIdPipe } from '../operation-id.pipe.js';
import { sendAnswer } from '../problem-answer.js';
import { GetOperationHistoryQuery } from './get-operation-history.query.js';
import { GetOperationStatusQuery } from './get-operation-status.query.js';
import { StoreDeadlineInterceptor } from '../store-deadline.interceptor.js';
import { historyAnswer, statusAnswer } from './status-http-answer.js';

/** Status and history of one operation (docs/api.md "Reading one operation"). */
@ApiTags('operator')
@UseInterceptors(StoreDeadlineInterceptor)
@Controller('v1/operations/:operationId')
export class StatusAndHistoryController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  @ApiOperation({ summary: 'Status of one operation, folded from its stream' })
  @ApiOkResponse({ type: OperationStatusDto })
  @RequireRole('auditor', 'operator', 'worker')
  @ApiQuery({
    name: 'asOf',
    required: false,
    description: 'Time travel: the state as of this ISO 8601 time (store clock)',
  })
  @ApiQuery({
    name: 'atRevision',
    required: false,
    description: 'Time travel: the state as of this stream revision (0-based)',
  })
  async status(
    @Param('operationId', operationIdPipe) id: string,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
    @Query('asOf') asOf?: string,
    @Query('atRevision') atRevision?: string,
  ): Promise<unknown> {
    const query = new GetOperationStatusQuery(id, caller, parseAsOf(asOf, atRevision));
    return sendAnswer(res, statusAnswer(await this.queryBus.execute(query)));
  }

  @Get('history')
  @ApiOperation({ summary: 'Every event of the operation, in commit order' })
  @ApiOkResponse({ type: OperationHistoryDto })
  @RequireRole('auditor', 'operator', 'worker')
  async history(
    @Param('operationId', operationIdPipe) id: string,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<unknown> {
    const result = await this.queryBus.execute(new GetOperationHistoryQuery(id, caller));
    return sendAnswer(res, historyAnswer(result));
  }
}

/**
 * Validates the time-travel query: `asOf` an ISO 8601 time with a zone, `atRevision` an integer
 * >= 0. @throws ProblemException 400 naming the parameter.
 */
function parseAsOf(asOf?: string, atRevision?: string): { revision?: bigint; time?: Date } {
  const out: { revision?: bigint; time?: Date } = {};
  if (atRevision !== undefined) {
    if (!/^(0|[1-9][0-9]{0,17})$/.test(atRevision)) {
      throw validationProblem([{ field: 'atRevision', message: 'atRevision must be an integer >= 0' }]);
    }
    out.revision = BigInt(atRevision);
  }
  if (asOf !== undefined) {
    const time = new Date(asOf);
    if (
      !/^\d{4}-\d{2}-\d{2}T/.test(asOf) ||
      !/(Z|[+-]\d{2}:\d{2})$/.test(asOf) ||
      Number.isNaN(time.getTime())
    ) {
      throw validationProblem([
        { field: 'asOf', message: 'asOf must be an ISO 8601 time with a zone, e.g. 2026-11-29T12:00:00Z' },
      ]);
    }
    out.time = time;
  }
  return out;
}
