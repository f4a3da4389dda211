import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ALL_TENANTS, type Caller, CurrentCaller, RequireRole } from '../../auth/index.js';
import { forbidden } from '../../auth/auth-problems.js';
import { LedgerMetrics } from './ledger-metrics.js';

/**
 * GET /metrics (Prometheus text): every tenant's counters, so an `auditor` or `admin` key bound
 * to all tenants; a tenant-bound key gets 403 `forbidden`.
 */
@ApiTags('metrics')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: LedgerMetrics) {}

  @Get()
  @RequireRole('auditor', 'admin')
  @ApiOperation({ summary: 'Prometheus metrics (needs an all-tenant auditor or admin key)' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format 0.0.4', schema: { type: 'string' } })
  async scrape(@CurrentCaller() caller: Caller, @Res() res: FastifyReply): Promise<void> {
    if (caller.tenant !== ALL_TENANTS)
      throw forbidden('the metrics cover every tenant: they need a key for all tenants (*)');
    const { contentType, body } = await this.metrics.scrape();
    await res.status(200).header('Content-Type', contentType).send(body);
  }
}
