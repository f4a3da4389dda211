import { Body, Controller, HttpCode, Post, Res, UseInterceptors } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../common/openapi/api-problems.decorator.js';
import type { FastifyReply } from 'fastify';
import { type Caller } from '../../auth/caller.js';
import { CurrentCaller } from '../../auth/current-caller.decorator.js';
import { RequireRole } from '../../auth/require-role.decorator.js';
import { sendAnswer } from '../problem-answer.js';
import { StoreDeadlineInterceptor } from '../store-deadline.interceptor.js';
import { Ctx, type RequestContext } from '../request-context.js';
import {
  BatchClaimAnswerDto,
  type BatchSlotDto,
  ClaimAcquiredDto,
  ClaimReplayedDto,
} from './claim-answers.dto.js';
import { BatchClaimRequestDto } from './batch-claim-request.dto.js';
import { BatchClaimCommand } from './batch-claim.command.js';
import { batchSlotAnswer, CLAIM_PROBLEMS, claimAnswer, REPLAYED_HEADER } from './claim-http-answer.js';
import { ClaimOperationCommand } from './claim-operation.command.js';
import { claimRequestOf, ClaimRequestDto } from './claim-request.dto.js';

/**
 * POST /v1/claims and /v1/claims/batch (docs/api.md "Claims"); role `worker`. The claim's
 * `key.tenant` must be the key's tenant (403 `forbidden-tenant`; in a batch, in that slot).
 */
@ApiTags('claims')
@UseInterceptors(StoreDeadlineInterceptor)
@Controller('v1/claims')
@RequireRole('worker')
export class ClaimsController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post()
  @ApiOperation({ summary: 'Claim an operation by its business key before doing its effect' })
  @ApiCreatedResponse({ type: ClaimAcquiredDto, description: 'Acquired: proceed with the fencing token' })
  @ApiOkResponse({
    type: ClaimReplayedDto,
    description: 'The key is finished: its outcome replayed',
    headers: {
      [REPLAYED_HEADER]: {
        description: 'Always true on a replay',
        schema: { type: 'string', enum: ['true'] },
      },
    },
  })
  @ApiProblems(...CLAIM_PROBLEMS)
  async claim(
    @Body() body: ClaimRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<unknown> {
    const command = new ClaimOperationCommand(claimRequestOf(body), ctx, caller);
    return sendAnswer(res, claimAnswer(await this.commandBus.execute(command)));
  }

  @Post('batch')
  @HttpCode(200)
  @ApiOperation({ summary: 'Claim up to 500 operations; one answer per item, in input order' })
  @ApiOkResponse({ type: BatchClaimAnswerDto, description: 'One slot per claim, in input order' })
  async batch(
    @Body() body: BatchClaimRequestDto,
    @Ctx() ctx: RequestContext,
    @CurrentCaller() caller: Caller,
  ): Promise<BatchClaimAnswerDto> {
    const outcomes = await this.commandBus.execute(new BatchClaimCommand(body.claims, ctx, caller));
    const results = outcomes.map((outcome, index) => {
      const a = batchSlotAnswer(outcome);
      return { index, status: a.status, body: a.body as BatchSlotDto['body'] };
    });
    return { results };
  }
}
