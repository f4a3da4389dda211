import { Body, Controller, HttpCode, Param, Post, Res, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../common/openapi/api-problems.decorator.js';
import {
  EvidenceAnswerDto,
  LeaseRenewedAnswerDto,
  PolicyCommandAnswerDto,
} from './policy-command-answers.dto.js';
import type { FastifyReply } from 'fastify';
import type { Caller } from '../../auth/caller.js';
import { CurrentCaller } from '../../auth/current-caller.decorator.js';
import { RequireRole } from '../../auth/require-role.decorator.js';
import { validationProblem } from '../../common/validation.js';
import type { JsonValue, PolicyCommandRequest } from '../../ledger/index.js';
import { sendAnswer } from '../problem-answer.js';
import { operationIdPipe } from '../operation-id.pipe.js';
import { StoreDeadlineInterceptor } from '../store-deadline.interceptor.js';
import { Ctx, type RequestContext } from '../request-context.js';
import {
  AcknowledgeRequestDto,
  EvidenceRequestDto,
  OperatorActionRequestDto,
  RenewLeaseRequestDto,
} from './policy-command-requests.dto.js';
import { policyCommandAnswer } from './policy-command-http-answer.js';
import { RunPolicyCommand } from './run-policy-command.command.js';

/**
 * Commands on one operation decided under its action's policy (docs/guide.md "Recovery and operator
 * workflows"): operator actions, recovery evidence, lease renewal.
 */
@ApiTags('workflows')
@UseInterceptors(StoreDeadlineInterceptor)
@Controller('v1/operations/:operationId')
export class PolicyCommandsController {
  constructor(private readonly commandBus: CommandBus) {}

  private async run(
    res: FastifyReply,
    id: string,
    request: PolicyCommandRequest,
    caller: Caller,
    ctx: RequestContext,
  ) {
    const outcome = await this.commandBus.execute(new RunPolicyCommand(id, request, caller, ctx));
    return sendAnswer(res, policyCommandAnswer(id, outcome));
  }

  @Post('approve')
  @HttpCode(200)
  @RequireRole('operator')
  @ApiOperation({ summary: 'Approve an operation awaiting approval; the next claim proceeds' })
  @ApiOkResponse({ type: PolicyCommandAnswerDto })
  @ApiProblems('not-awaiting-approval')
  approve(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: OperatorActionRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const request = { type: 'ApproveOperation', actor: caller.name, reason: body.reason } as const;
    return this.run(res, id, request, caller, ctx);
  }

  @Post('reject')
  @HttpCode(200)
  @RequireRole('operator')
  @ApiOperation({ summary: 'Reject an operation awaiting approval; later claims replay the rejection' })
  @ApiOkResponse({ type: PolicyCommandAnswerDto })
  @ApiProblems('not-awaiting-approval')
  reject(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: OperatorActionRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const request = { type: 'RejectOperation', actor: caller.name, reason: body.reason } as const;
    return this.run(res, id, request, caller, ctx);
  }

  @Post('replay')
  @HttpCode(200)
  @RequireRole('operator')
  @ApiOperation({ summary: 'Let a final failure run again (only where the policy allows replay)' })
  @ApiOkResponse({ type: PolicyCommandAnswerDto })
  @ApiProblems('not-final-failure', 'replay-not-allowed')
  replay(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: OperatorActionRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const request = { type: 'ReplayOperation', actor: caller.name, reason: body.reason } as const;
    return this.run(res, id, request, caller, ctx);
  }

  @Post('duplicate-effects/acknowledge')
  @HttpCode(200)
  @RequireRole('operator')
  @ApiOperation({ summary: 'Acknowledge duplicate effects after cleaning them up at the destination' })
  @ApiOkResponse({ type: PolicyCommandAnswerDto })
  @ApiProblems('no-duplicate-effect')
  acknowledge(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: AcknowledgeRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const request = {
      type: 'AcknowledgeDuplicateEffect',
      actor: caller.name,
      reason: body.reason,
      refs: body.refs ?? null,
    } as const;
    return this.run(res, id, request, caller, ctx);
  }

  @Post('evidence')
  @HttpCode(200)
  @RequireRole('worker', 'operator')
  @ApiOperation({ summary: "Submit a recovery worker's evidence for an operation whose outcome is unknown" })
  @ApiOkResponse({ type: EvidenceAnswerDto })
  @ApiProblems('not-unknown', 'operator-only-recovery')
  evidence(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: EvidenceRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const checked = body.checkedFields;
    if (typeof checked !== 'object' || checked === null || Array.isArray(checked)) {
      throw validationProblem([
        { field: 'checkedFields', message: 'checkedFields must be an object of the fields matched' },
      ]);
    }
    if (body.verdict === 'found' && body.destinationRef === undefined) {
      throw validationProblem([
        { field: 'destinationRef', message: 'destinationRef is required when verdict is found' },
      ]);
    }
    const request = {
      type: 'SubmitEvidence',
      verdict: body.verdict,
      destinationRef: body.destinationRef ?? null,
      checkedFields: checked as Record<string, JsonValue>,
      actor: caller.name,
      note: body.note ?? null,
    } as const;
    return this.run(res, id, request, caller, ctx);
  }

  @Post('lease/renew')
  @HttpCode(200)
  @RequireRole('worker')
  @ApiOperation({ summary: 'Heartbeat: extend the lease from now (fencing token required)' })
  @ApiOkResponse({ type: LeaseRenewedAnswerDto })
  @ApiProblems('stale-token', 'not-in-progress')
  renew(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: RenewLeaseRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const request = { type: 'RenewLease', fencingToken: body.fencingToken, leaseMs: body.leaseMs } as const;
    return this.run(res, id, request, caller, ctx);
  }
}
