import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiProblems } from '../../common/openapi/api-problems.decorator.js';
import { ReconciliationItemsDto, ReconciliationRunDto, ReconciliationRunListDto } from './run-answers.dto.js';
import type { FastifyReply } from 'fastify';
import { streamResponse } from '../../common/streamed-response.js';
import { CurrentCaller, RequireRole, type Caller } from '../../auth/index.js';
import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import type { SqlExecutor } from '../../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../../event-store/sql-executor.token.js';
import { decodeCursor, encodeCursor, invalidCursor } from '../../projections/http/cursor.js';
import { readableTenant } from '../../projections/http/tenant-param.js';
import { runNotFound } from './reconciliation-http-answer.js';
import type { ReconciliationRun } from '../run.js';
import { itemsPage } from '../sql/report-queries.js';
import { runStore } from '../sql/run-store.js';
import { itemsCsvHeader, itemsCsvLines } from './items-csv.js';
import { presentRun } from './present-run.js';
import { ItemsQueryDto, ListRunsQueryDto } from './reconciliation-queries.dto.js';
import { runIdPipe } from './run-id.pipe.js';

/** Items per query while streaming the CSV download. */
const CSV_PAGE = 1000;

/** 409 while a run is not complete: its items would be a half report. */
function notComplete(run: ReconciliationRun): ProblemException {
  const failed = run.status === 'failed';
  return new ProblemException(
    problem(
      failed ? 'reconciliation-failed' : 'reconciliation-not-complete',
      409,
      failed
        ? `reconciliation ${run.id} failed: ${run.error ?? 'no reason recorded'}`
        : `reconciliation ${run.id} is ${run.status}${run.phase ? ` (${run.phase})` : ''}; items are shown once it is completed`,
      {
        title: failed ? 'The reconciliation failed' : 'The reconciliation is not complete yet',
        reconciliationStatus: run.status,
        progress: run.progress,
      },
    ),
    failed ? {} : { 'Retry-After': '2' },
  );
}

/** Reading reconciliations: runs, their status and totals, their items (JSON pages or CSV). */
@ApiTags('reconciliation')
@Controller('v1/tenants/:tenant/reconciliations')
export class ReconciliationReportsController {
  constructor(@Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor) {}

  @Get()
  @RequireRole('auditor', 'operator')
  @ApiOperation({ summary: 'The latest reconciliations of the tenant, newest first' })
  @ApiOkResponse({ type: ReconciliationRunListDto })
  @ApiProblems('forbidden-tenant')
  async list(
    @Param('tenant') tenant: string,
    @Query() q: ListRunsQueryDto,
    @CurrentCaller() caller: Caller,
  ): Promise<ReconciliationRunListDto> {
    readableTenant(caller, tenant);
    const runs = await runStore.latest(this.sql, tenant, q.limit ?? 20);
    return { tenant, items: runs.map(presentRun) };
  }

  @Get(':id')
  @RequireRole('auditor', 'operator')
  @ApiOperation({ summary: 'A reconciliation: status, phase, progress, and totals once completed' })
  @ApiOkResponse({ type: ReconciliationRunDto })
  @ApiProblems('forbidden-tenant', 'not-found')
  async get(
    @Param('tenant') tenant: string,
    @Param('id', runIdPipe) id: string,
    @CurrentCaller() caller: Caller,
  ): Promise<ReconciliationRunDto> {
    readableTenant(caller, tenant);
    const run = await runStore.get(this.sql, tenant, id);
    if (!run) throw runNotFound({ kind: 'run-not-found', id });
    return presentRun(run);
  }

  @Get(':id/items')
  @RequireRole('auditor', 'operator')
  @ApiProduces('application/json', 'text/csv')
  @ApiOperation({ summary: "A completed reconciliation's items, paged and filtered by category, or as CSV" })
  @ApiOkResponse({
    description: 'format=json: a page of items; format=csv: every item as text/csv',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ReconciliationItemsDto) } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @ApiExtraModels(ReconciliationItemsDto)
  @ApiProblems('forbidden-tenant', 'not-found', 'reconciliation-not-complete', 'reconciliation-failed')
  async items(
    @Param('tenant') tenant: string,
    @Param('id', runIdPipe) id: string,
    @Query() q: ItemsQueryDto,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    readableTenant(caller, tenant);
    const run = await runStore.get(this.sql, tenant, id);
    if (!run) throw runNotFound({ kind: 'run-not-found', id });
    if (run.status !== 'completed') throw notComplete(run);
    if (q.format === 'csv') {
      if (q.cursor !== undefined) throw invalidCursor();
      const res = streamResponse(reply, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="reconciliation-${run.id}${q.category ? `-${q.category}` : ''}.csv"`,
        'X-Ledger-Checkpoint': run.checkpoint ?? '-1',
      });
      res.write(itemsCsvHeader());
      try {
        let after = 0;
        for (;;) {
          const page = await itemsPage(this.sql, id, { category: q.category, afterSeq: after }, CSV_PAGE);
          res.write(itemsCsvLines(page.items));
          if (page.lastSeq === null) break;
          after = page.lastSeq;
        }
        res.end();
      } catch (error) {
        res.destroy(error as Error); // the status line is sent: a cut connection is the only honest answer
      }
      return;
    }
    const cursor = decodeCursor(q.cursor, 1);
    if (cursor && !/^\d{1,18}$/.test(cursor[0]!)) throw invalidCursor();
    const page = await itemsPage(
      this.sql,
      id,
      { category: q.category, afterSeq: cursor ? Number(cursor[0]) : 0 },
      q.limit ?? 50,
    );
    void reply.send({
      id: run.id,
      tenant,
      category: q.category ?? null,
      checkpoint: run.checkpoint,
      totals: run.totals,
      items: page.items,
      nextCursor: page.lastSeq === null ? null : encodeCursor([String(page.lastSeq)]),
    } satisfies ReconciliationItemsDto);
  }
}
