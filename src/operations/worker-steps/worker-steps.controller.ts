import {
  applyDecorators,
  Body,
  Controller,
  HttpCode,
  Param,
  Post,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../common/openapi/api-problems.decorator.js';
import type { ProblemCode } from '../../common/problem-codes.js';
import { WorkerAnswerDto } from './worker-answer.dto.js';
import type { FastifyReply } from 'fastify';
import { type Caller } from '../../auth/caller.js';
import { CurrentCaller } from '../../auth/current-caller.decorator.js';
import { RequireRole } from '../../auth/require-role.decorator.js';
import { validationProblem } from '../../common/validation.js';
import { stepNameIssue, type JsonValue } from '../../ledger/index.js';
import { sendAnswer } from '../problem-answer.js';
import { operationIdPipe } from '../operation-id.pipe.js';
import { StoreDeadlineInterceptor } from '../store-deadline.interceptor.js';
import { Ctx, type RequestContext } from '../request-context.js';
import { ConfirmRequestDto } from './confirm-request.dto.js';
import { FailRequestDto } from './fail-request.dto.js';
import { ReleaseRequestDto } from './release-request.dto.js';
import { RunWorkerCommand, type WorkerCommandInput } from './run-worker-command.command.js';
import { CompleteStepRequestDto, NotPerformedRequestDto, StartStepRequestDto } from './step-requests.dto.js';
import { UnknownRequestDto } from './unknown-request.dto.js';
import { workerAnswer } from './worker-http-answer.js';

/**
 * `step` when it is a valid step name (the domain's rule).
 * @throws ProblemException 400 `validation` naming `field`.
 */
function stepName(step: string, field = 'step'): string {
  const issue = stepNameIssue(step, field);
  if (issue) throw validationProblem([issue]);
  return step;
}

/** The 200 of a follow-up and the refusals it may answer. */
const ApiWorkerAnswer = (...codes: ProblemCode[]) =>
  applyDecorators(ApiOkResponse({ type: WorkerAnswerDto }), ApiProblems(...codes));

/**
 * Fenced follow-ups of a claim (docs/api.md "Worker follow-ups"); role `worker`. Each answers 200 or a
 * problem; an operation of another tenant answers 404 `not-found`, exactly like an unknown id.
 */
@ApiTags('worker')
@UseInterceptors(StoreDeadlineInterceptor)
@Controller('v1/operations/:operationId')
@RequireRole('worker')
export class WorkerStepsController {
  constructor(private readonly commandBus: CommandBus) {}

  private async run(
    res: FastifyReply,
    id: string,
    input: WorkerCommandInput,
    ctx: RequestContext,
    caller: Caller,
  ) {
    const executed = await this.commandBus.execute(new RunWorkerCommand(id, input, ctx, caller));
    return sendAnswer(res, workerAnswer(id, executed));
  }

  @Post('steps/:step/start')
  @HttpCode(200)
  @ApiOperation({ summary: 'Record that a step starts; returns its provider idempotency key' })
  @ApiWorkerAnswer('stale-token', 'not-in-progress')
  start(
    @Param('operationId', operationIdPipe) id: string,
    @Param('step') step: string,
    @Body() body: StartStepRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    return this.run(
      res,
      id,
      { type: 'StartStep', fencingToken: body.fencingToken, step: stepName(step) },
      ctx,
      caller,
    );
  }

  @Post('steps/:step/complete')
  @HttpCode(200)
  @ApiOperation({ summary: 'Record that a step completed, with its outputs' })
  @ApiWorkerAnswer('stale-token', 'step-not-started', 'not-in-progress')
  complete(
    @Param('operationId', operationIdPipe) id: string,
    @Param('step') step: string,
    @Body() body: CompleteStepRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const input = {
      type: 'CompleteStep',
      fencingToken: body.fencingToken,
      step: stepName(step),
      outputs: (body.outputs ?? null) as JsonValue | null,
    } as const;
    return this.run(res, id, input, ctx, caller);
  }

  @Post('steps/:step/not-performed')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'State that a started step was not performed (its request never left); a retryable failure is then accepted',
  })
  @ApiWorkerAnswer('stale-token', 'step-not-started', 'outcome-uncertain', 'not-in-progress')
  notPerformed(
    @Param('operationId', operationIdPipe) id: string,
    @Param('step') step: string,
    @Body() body: NotPerformedRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const input = {
      type: 'MarkStepNotPerformed',
      fencingToken: body.fencingToken,
      step: stepName(step),
      reason: body.reason,
    } as const;
    return this.run(res, id, input, ctx, caller);
  }

  @Post('confirm')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Confirm the effect with its destination reference (optionally completing a step in the same append)',
  })
  @ApiWorkerAnswer('stale-token', 'duplicate-effect', 'step-not-started', 'not-in-progress')
  confirm(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: ConfirmRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const input = {
      type: 'ConfirmOperation',
      fencingToken: body.fencingToken,
      destinationRef: body.destinationRef ?? null,
      outputs: (body.outputs ?? null) as JsonValue | null,
      completeStep: body.completeStep
        ? {
            step: stepName(body.completeStep.name, 'completeStep.name'),
            outputs: (body.completeStep.outputs ?? null) as JsonValue | null,
          }
        : null,
    } as const;
    return this.run(res, id, input, ctx, caller);
  }

  @Post('fail')
  @HttpCode(200)
  @ApiOperation({ summary: 'Report a failure, retryable or final' })
  @ApiWorkerAnswer('stale-token', 'outcome-uncertain', 'not-in-progress')
  fail(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: FailRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const input = {
      type: 'FailOperation',
      fencingToken: body.fencingToken,
      error: { code: body.error.code, message: body.error.message },
      retryable: body.retryable,
    } as const;
    return this.run(res, id, input, ctx, caller);
  }

  @Post('release')
  @HttpCode(200)
  @ApiOperation({ summary: 'Give the operation back before any step started' })
  @ApiWorkerAnswer('stale-token', 'outcome-uncertain', 'not-in-progress')
  release(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: ReleaseRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const input = {
      type: 'ReleaseOperation',
      fencingToken: body.fencingToken,
      reason: body.reason ?? null,
    } as const;
    return this.run(res, id, input, ctx, caller);
  }

  @Post('unknown')
  @HttpCode(200)
  @ApiOperation({ summary: 'Report that the outcome is unknown (e.g. a timeout after the call)' })
  @ApiWorkerAnswer('stale-token', 'not-in-progress')
  unknown(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: UnknownRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const input = {
      type: 'ReportUnknownOutcome',
      fencingToken: body.fencingToken,
      reason: body.reason,
      ...(body.timedOut === true ? { timedOut: true } : {}),
    } as const;
    return this.run(res, id, input, ctx, caller);
  }
}
