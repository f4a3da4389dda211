import { Controller, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../common/openapi/api-problems.decorator.js';
import { ReconciliationRunDto } from './run-answers.dto.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentCaller, RequireRole, type Caller } from '../../auth/index.js';
import { readableTenant } from '../../projections/http/tenant-param.js';
import { ReconciliationService, type UploadOutcome } from '../reconciliation.service.js';
import { presentRun } from './present-run.js';
import { uploadRefusalProblem } from './reconciliation-http-answer.js';
import { CreateReconciliationQueryDto, SourceUploadQueryDto } from './reconciliation-queries.dto.js';
import { runIdPipe } from './run-id.pipe.js';

/**
 * Starting reconciliations against a destination export (docs/reconciliation.md): the body is
 * streamed, never buffered whole; 202 with the run. Role `operator`.
 */
@ApiTags('reconciliation')
@Controller('v1/tenants/:tenant/reconciliations')
export class ReconciliationsController {
  constructor(private readonly service: ReconciliationService) {}

  @Post()
  @HttpCode(202)
  @RequireRole('operator') // an upload writes (rows, items, ledger events): auditors stay read-only
  @ApiConsumes('text/csv', 'application/x-ndjson')
  @ApiOperation({ summary: 'Upload a destination export and start a reconciliation (202 with its id)' })
  @ApiAcceptedResponse({
    type: ReconciliationRunDto,
    description: 'queued (or awaiting_source); poll Location',
  })
  @ApiProblems(
    'validation',
    'forbidden-tenant',
    'payload-too-large',
    'record-too-large',
    'unsupported-media-type',
    'invalid-upload',
    'upload-interrupted',
    'upload-abandoned',
  )
  async create(
    @Param('tenant') tenant: string,
    @Query() q: CreateReconciliationQueryDto,
    @CurrentCaller() caller: Caller,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<ReconciliationRunDto> {
    readableTenant(caller, tenant);
    return accepted(await this.service.create(tenant, q, caller, req.raw), res);
  }

  @Put(':id/source')
  @HttpCode(202)
  @RequireRole('operator') // an upload writes (rows, items, ledger events): auditors stay read-only
  @ApiConsumes('text/csv', 'application/x-ndjson')
  @ApiOperation({ summary: 'Upload the source intents of a run created with awaitSource=true; queues it' })
  @ApiAcceptedResponse({ type: ReconciliationRunDto, description: 'queued; poll Location' })
  @ApiProblems(
    'validation',
    'forbidden-tenant',
    'not-found',
    'not-awaiting-source',
    'payload-too-large',
    'record-too-large',
    'unsupported-media-type',
    'invalid-upload',
    'upload-interrupted',
    'upload-abandoned',
  )
  async source(
    @Param('tenant') tenant: string,
    @Param('id', runIdPipe) id: string,
    @Query() q: SourceUploadQueryDto,
    @CurrentCaller() caller: Caller,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<ReconciliationRunDto> {
    readableTenant(caller, tenant);
    return accepted(await this.service.uploadSource(tenant, id, q, req.raw), res);
  }
}

/** 202 with the run and its Location, or the refusal's problem+json. */
function accepted(outcome: UploadOutcome, res: FastifyReply): ReconciliationRunDto {
  if (outcome.kind !== 'received') throw uploadRefusalProblem(outcome);
  const run = presentRun(outcome.run);
  res.header('Location', run.links.self);
  return run;
}
