import { Body, Controller, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { type Caller } from '../../auth/caller.js';
import { CurrentCaller } from '../../auth/current-caller.decorator.js';
import { RequireRole } from '../../auth/require-role.decorator.js';
import { LEDGER_CONFIG } from '../../config/config.token.js';
import type { LedgerConfig } from '../../config/ledger-config.js';
import { Ctx } from '../../common/request-context.decorator.js';
import type { RequestContext } from '../core/event-metadata.js';
import { BatchClaimRequestDto } from '../dto/batch-claim-request.dto.js';
import { ClaimRequestDto } from '../dto/claim-request.dto.js';
import { sendAnswer } from '../http/send-answer.js';
import { BatchClaimCommand } from './batch-claim.command.js';
import { prepareClaim } from './claim-input.js';
import { ClaimOperationCommand } from './claim-operation.command.js';

/**
 * POST /v1/claims and /v1/claims/batch (API.md "Worker routes"); role `worker`. The claim's
 * `key.tenant` must be the key's tenant (403 `forbidden-tenant`; in a batch, in that slot).
 */
@ApiTags('claims')
@Controller('v1/claims')
@RequireRole('worker')
export class ClaimsController {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

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
    const claim = prepareClaim(body, this.config);
    return sendAnswer(res, await this.commandBus.execute(new ClaimOperationCommand(claim, ctx, caller)));
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
    const results = await this.commandBus.execute(new BatchClaimCommand(body.claims, ctx, caller));
    return { results };
  }
}
