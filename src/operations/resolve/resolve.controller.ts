import { Body, Controller, HttpCode, Param, Post, Res, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../common/openapi/api-problems.decorator.js';
import { ReferenceAnswerDto, ResolveAnswerDto } from './resolve-answers.dto.js';
import type { FastifyReply } from 'fastify';
import { type Caller } from '../../auth/caller.js';
import { CurrentCaller } from '../../auth/current-caller.decorator.js';
import { RequireRole } from '../../auth/require-role.decorator.js';
import { sendAnswer } from '../problem-answer.js';
import { operationIdPipe } from '../operation-id.pipe.js';
import { StoreDeadlineInterceptor } from '../store-deadline.interceptor.js';
import { Ctx, type RequestContext } from '../request-context.js';
import { resolveActor } from './resolve-actor.js';
import { referenceAnswer, resolveAnswer } from './resolve-http-answer.js';
import { ResolveOperationCommand } from './resolve-operation.command.js';
import { ReferenceRequestDto, ResolveRequestDto } from './resolve-request.dto.js';
import { validationProblem } from '../../common/validation.js';
import { resolveRequestIssue } from '../../ledger/index.js';

/** POST /v1/operations/{id}/resolve (docs/api.md "Recovery and operator workflows"): role `operator`. */
@ApiTags('operator')
@UseInterceptors(StoreDeadlineInterceptor)
@Controller('v1/operations/:operationId')
export class ResolveController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post('resolve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Resolve an operation whose outcome is unknown' })
  @ApiOkResponse({ type: ResolveAnswerDto })
  @ApiProblems('not-unknown')
  @RequireRole('operator')
  async resolve(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: ResolveRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const issue = resolveRequestIssue(body.resolution, body.destinationRef);
    if (issue) throw validationProblem([issue]);
    const input = {
      type: 'ResolveOperation',
      resolution: body.resolution,
      destinationRef: body.destinationRef ?? null,
      reason: body.reason,
      ...resolveActor(caller, body.actor),
    } as const;
    const executed = await this.commandBus.execute(new ResolveOperationCommand(id, input, ctx, caller));
    return sendAnswer(res, resolveAnswer(id, input, executed));
  }

  @Post('reference')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Record the destination reference of an operation confirmed without one (audited; not a second effect)',
  })
  @ApiOkResponse({ type: ReferenceAnswerDto })
  @ApiProblems('not-confirmed', 'reference-already-recorded')
  @RequireRole('operator')
  async reference(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: ReferenceRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const input = {
      type: 'RecordDestinationReference',
      destinationRef: body.destinationRef,
      reason: body.reason,
      ...resolveActor(caller, body.actor),
    } as const;
    const executed = await this.commandBus.execute(new ResolveOperationCommand(id, input, ctx, caller));
    return sendAnswer(res, referenceAnswer(id, input, executed));
  }
}
