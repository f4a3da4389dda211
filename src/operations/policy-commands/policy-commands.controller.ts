import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Caller } from '../../auth/caller.js';
import { CurrentCaller } from '../../auth/current-caller.decorator.js';
import { RequireRole } from '../../auth/require-role.decorator.js';
import { Ctx } from '../../common/request-context.decorator.js';
import { validationProblem } from '../../common/validation.js';
import type { JsonValue, LedgerCommand } from '../../ledger/index.js';
import type { RequestContext } from '../core/event-metadata.js';
import { sendAnswer } from '../http/send-answer.js';
import { RunOperationCommand, type CommandBuilder } from './run-operation-command.command.js';
import {
  AcknowledgeRequestDto,
  EvidenceRequestDto,
  OperatorActionRequestDto,
  RenewLeaseRequestDto,
} from './workflow-requests.dto.js';
import { operationIdPipe } from '../http/operation-id.pipe.js';

/**
 * Recovery and operator workflows on one operation (issue "Recovery and operator workflows").
 * Operator actions record the actor from the API key and a required reason in the stream.
 */
@ApiTags('workflows')
@Controller('v1/operations/:operationId')
export class WorkflowsController {
  constructor(private readonly commandBus: CommandBus) {}

  private async run(res: Response, id: string, build: CommandBuilder, caller: Caller, ctx: RequestContext) {
    return sendAnswer(res, await this.commandBus.execute(new RunOperationCommand(id, build, caller, ctx)));
  }

  private operatorAction(type: string, extra: (policyReplay: boolean) => object = () => ({})) {
    return (res: Response, id: string, body: OperatorActionRequestDto, caller: Caller, ctx: RequestContext) =>
      this.run(
        res,
        id,
        (policy, now) =>
          ({
            type,
            now,
            actor: caller.name,
            reason: body.reason,
            ...extra(policy.replayAllowed),
          }) as LedgerCommand,
        caller,
        ctx,
      );
  }

  @Post('approve')
  @HttpCode(200)
  @RequireRole('operator')
  @ApiOperation({ summary: 'Approve an operation awaiting approval; the next claim proceeds' })
  @ApiResponse({ status: 409, description: 'not-awaiting-approval' })
  approve(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: OperatorActionRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.operatorAction('ApproveOperation')(res, id, body, caller, ctx);
  }

  @Post('reject')
  @HttpCode(200)
  @RequireRole('operator')
  @ApiOperation({ summary: 'Reject an operation awaiting approval; later claims replay the rejection' })
  @ApiResponse({ status: 409, description: 'not-awaiting-approval' })
  reject(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: OperatorActionRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.operatorAction('RejectOperation')(res, id, body, caller, ctx);
  }

  @Post('replay')
  @HttpCode(200)
  @RequireRole('operator')
  @ApiOperation({ summary: 'Let a final failure run again (only where the policy allows replay)' })
  @ApiResponse({ status: 409, description: 'replay-not-allowed / not-final-failure' })
  replay(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: OperatorActionRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.operatorAction('ReplayOperation', (replayAllowed) => ({ replayAllowed }))(
      res,
      id,
      body,
      caller,
      ctx,
    );
  }

  @Post('duplicate-effects/acknowledge')
  @HttpCode(200)
  @RequireRole('operator')
  @ApiOperation({ summary: 'Acknowledge duplicate effects after cleaning them up at the destination' })
  @ApiResponse({ status: 409, description: 'no-duplicate-effect' })
  acknowledge(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: AcknowledgeRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.operatorAction('AcknowledgeDuplicateEffect', () => ({ refs: body.refs ?? null }))(
      res,
      id,
      body,
      caller,
      ctx,
    );
  }

  @Post('evidence')
  @HttpCode(200)
  @RequireRole('worker', 'operator')
  @ApiOperation({ summary: "Submit a recovery worker's evidence for an operation whose outcome is unknown" })
  @ApiResponse({ status: 409, description: 'not-unknown / operator-only-recovery' })
  evidence(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: EvidenceRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
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
    return this.run(
      res,
      id,
      (policy, now) => ({
        type: 'SubmitEvidence',
        now,
        verdict: body.verdict,
        destinationRef: body.destinationRef ?? null,
        checkedFields: checked as Record<string, JsonValue>,
        actor: caller.name,
        note: body.note ?? null,
        recoveryMode: policy.recoveryMode,
      }),
      caller,
      ctx,
    );
  }

  @Post('lease/renew')
  @HttpCode(200)
  @RequireRole('worker')
  @ApiOperation({ summary: 'Heartbeat: extend the lease from now (fencing token required)' })
  @ApiResponse({ status: 409, description: 'stale-token / not-in-progress' })
  renew(
    @Param('operationId', operationIdPipe) id: string,
    @Body() body: RenewLeaseRequestDto,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.run(
      res,
      id,
      (policy, now) => {
        if (body.leaseMs > policy.maxLeaseMs) {
          throw validationProblem([
            { field: 'leaseMs', message: `must be at most ${policy.maxLeaseMs} ms (the action's policy)` },
          ]);
        }
        return { type: 'RenewLease', now, fencingToken: body.fencingToken, leaseMs: body.leaseMs };
      },
      caller,
      ctx,
    );
  }
}
