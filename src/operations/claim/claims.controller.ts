import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { type Caller } from '../../auth/caller.js';
import { CurrentCaller } from '../../auth/current-caller.decorator.js';
import { RequireRole } from '../../auth/require-role.decorator.js';
import type { RequestContext } from '../event-metadata.js';
import { batchSlotAnswer, claimAnswer, sendAnswer } from '../http-answers.js';
import { Ctx } from '../request-context.decorator.js';
import { BatchClaimRequestDto } from './batch-claim-request.dto.js';
import { BatchClaimCommand } from './batch-claim.js';
import { ClaimOperationCommand } from './claim-operation.js';
import { claimRequestOf, ClaimRequestDto } from './claim-request.dto.js';

/**
 * POST /v1/claims and /v1/claims/batch (docs/api.md "Claims"); role `worker`. The claim's
 * `key.tenant` must be the key's tenant (403 `forbidden-tenant`; in a batch, in that slot).
 */
@ApiTags('claims')
@Controller('v1/claims')
@RequireRole('worker')
export class ClaimsController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post()
  @ApiOperation({ summary: 'Claim an operation by its business key before doing its effect' })
  @ApiResponse({ status: 201, description: 'Acquired: proceed with the fencing token' })
  @ApiResponse({ status: 200, description: 'Replay of a terminal outcome (Idempotent-Replayed: true)' })
  @ApiResponse({ status: 409, description: 'in-progress (Retry-After) or awaiting-recovery' })
  @ApiResponse({ status: 422, description: 'payload-conflict' })
  @ApiResponse({ status: 400, description: 'invalid-key / validation' })
  @ApiResponse({ status: 413, description: 'payload-too-large' })
  @ApiResponse({
    status: 403,
    description: "forbidden (no worker role) / forbidden-tenant (key.tenant is not the key's)",
  })
  async claim(
    @Body() body: ClaimRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    const command = new ClaimOperationCommand(claimRequestOf(body), ctx, caller);
    return sendAnswer(res, claimAnswer(await this.commandBus.execute(command)));
  }

  @Post('batch')
  @HttpCode(200)
  @ApiOperation({ summary: 'Claim up to 500 operations; one answer per item, in input order' })
  @ApiResponse({ status: 200, description: '{ results: [ { index, status, body } ] }' })
  async batch(
    @Body() body: BatchClaimRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
  ): Promise<unknown> {
    const outcomes = await this.commandBus.execute(new BatchClaimCommand(body.claims, ctx, caller));
    const results = outcomes.map((outcome, index) => {
      const a = batchSlotAnswer(outcome);
      return { index, status: a.status, body: a.body };
    });
    return { results };
  }
}
