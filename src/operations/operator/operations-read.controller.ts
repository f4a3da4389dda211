import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Ctx } from '../../common/request-context.decorator.js';
import { validationProblem } from '../../common/validation.js';
import type { RequestContext } from '../core/event-metadata.js';
import { ResolveRequestDto } from '../dto/resolve-request.dto.js';
import { GetOperationHistoryQuery } from '../queries/get-operation-history.query.js';
import { GetOperationStatusQuery } from '../queries/get-operation-status.query.js';
import { ResolveOperationCommand } from './resolve-operation.command.js';

const uuid = new ParseUUIDPipe({
  exceptionFactory: () =>
    validationProblem([{ field: 'operationId', message: 'operationId must be a UUID' }]),
});

/** Operator and auditor routes (API.md): resolve, status, history. */
@ApiTags('operator')
@Controller('v1/operations/:operationId')
export class OperatorController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Post('resolve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Resolve an operation whose outcome is unknown' })
  @ApiResponse({ status: 409, description: 'not-unknown' })
  async resolve(
    @Param('operationId', uuid) id: string,
    @Body() body: ResolveRequestDto,
    @Ctx() ctx: RequestContext,
  ) {
    const input = {
      type: 'ResolveOperation',
      resolution: body.resolution,
      destinationRef: body.destinationRef ?? null,
      reason: body.reason,
      actor: body.actor,
    } as const;
    const a = await this.commandBus.execute(new ResolveOperationCommand(id, input, ctx));
    return a.body;
  }

  @Get()
  @ApiOperation({ summary: 'Status of one operation, folded from its stream' })
  @ApiResponse({ status: 404, description: 'not-found' })
  status(@Param('operationId', uuid) id: string) {
    return this.queryBus.execute(new GetOperationStatusQuery(id));
  }

  @Get('history')
  @ApiOperation({ summary: 'Every event of the operation, in commit order' })
  @ApiResponse({ status: 404, description: 'not-found' })
  history(@Param('operationId', uuid) id: string) {
    return this.queryBus.execute(new GetOperationHistoryQuery(id));
  }
}
