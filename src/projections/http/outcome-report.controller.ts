import { ApiProblems } from '../../common/openapi/api-problems.decorator.js';
import { ReconciliationReportDto } from './dto/read-model-answers.dto.js';
import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  getSchemaPath,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { streamResponse } from '../../common/streamed-response.js';
import { type Caller, CurrentCaller, RequireRole } from '../../auth/index.js';
import { validationProblem } from '../../common/validation.js';
import { csvHeader, csvLine } from '../operation-views/outcome-report-csv.js';
import {
  reconcile,
  reconciliationLines,
  type ReconciliationScope,
} from '../operation-views/outcome-report-queries.js';
import { ProjectionRuntime } from '../projection-runtime.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from './cursor.js';
import { DEFAULT_PAGE_SIZE } from './dto/page-query.dto.js';
import { ReconciliationQueryDto } from './dto/read-model-queries.dto.js';
import { assertTimeRange } from './dto/time-filters.js';
import { readableTenant } from './tenant-param.js';

/** Operations per query while streaming the CSV export. */
const CSV_PAGE = 1000;

/**
 * GET /v1/tenants/{tenant}/reconciliation: the outcome report, read from the ledger alone (JSON
 * totals and a page, or every operation as streamed CSV). The comparison with a destination's
 * export is src/reconciliation. The class name is the prefix of the routes' OpenAPI operationIds.
 */
@ApiTags('read models')
@Controller('v1/tenants/:tenant/reconciliation')
export class ReconciliationController {
  constructor(private readonly runtime: ProjectionRuntime) {}

  @Get()
  @RequireRole('auditor', 'operator')
  @ApiOperation({ summary: 'Reconciliation report: operations vs destination outcomes (JSON or CSV)' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description:
      'format=json: the report; format=csv: every matching operation as text/csv (X-Ledger-* headers)',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ReconciliationReportDto) } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @ApiExtraModels(ReconciliationReportDto)
  @ApiProblems('forbidden-tenant')
  async report(
    @Param('tenant') tenant: string,
    @Query() q: ReconciliationQueryDto,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    readableTenant(caller, tenant);
    assertTimeRange(q.from, q.to);
    const scope: ReconciliationScope = { tenant, action: q.action, from: q.from, to: q.to };
    const freshness = await this.runtime.freshnessOf('operations');
    const sql = this.runtime.db.executor;
    if (q.format === 'csv') {
      if (q.cursor !== undefined)
        throw validationProblem([{ field: 'cursor', message: 'the CSV export has no pages' }]);
      const res = streamResponse(reply, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="reconciliation-${encodeURIComponent(tenant)}.csv"`,
        'X-Ledger-Checkpoint': freshness.checkpoint,
        'X-Ledger-Lag-Events': String(freshness.lag.events),
        'X-Ledger-Lag-Seconds': freshness.lag.seconds.toFixed(3),
      });
      res.write(csvHeader());
      try {
        let after: string[] | undefined;
        do {
          const page = await reconciliationLines(sql, scope, CSV_PAGE, after);
          res.write(page.lines.map(csvLine).join(''));
          after = page.last ?? undefined;
        } while (after);
        res.end();
      } catch (error) {
        res.destroy(error as Error); // the status line is sent: a cut connection is the only honest answer
      }
      return;
    }
    const after = decodeCursor(q.cursor, 2);
    if (after) {
      cursorInstant(after[0]!);
      cursorUuid(after[1]!);
    }
    const { totals, byAction } = await reconcile(sql, scope);
    const page = await reconciliationLines(sql, scope, q.limit ?? DEFAULT_PAGE_SIZE, after);
    void reply.send({
      tenant,
      action: q.action ?? null,
      from: q.from ?? null,
      to: q.to ?? null,
      ...freshness,
      totals,
      byAction,
      items: page.lines,
      nextCursor: page.last === null ? null : encodeCursor(page.last),
    } satisfies ReconciliationReportDto);
  }
}
