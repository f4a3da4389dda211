import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ALL_TENANTS, type Caller, CurrentCaller, forbidden, RequireRole } from '../../auth/index.js';
import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import { ProjectionRuntime, type ReadModelStatus } from '../projection-runtime.js';

/**
 * A projector's status shows positions in the global log, when the last event of ANY tenant was
 * applied and which host:pid holds the projection: shared facts, so keys bound to one tenant may
 * not read them (403 `forbidden`).
 */
function assertAllTenants(caller: Caller): void {
  if (caller.tenant !== ALL_TENANTS) {
    throw forbidden('projector status spans every tenant: it needs a key for all tenants (*)');
  }
}

/**
 * Operator commands on the projector: status of every read model (checkpoint, lag, holder,
 * state, generation, rebuild progress, last error) and an online rebuild from zero (shadow
 * tables, swapped in when caught up; the API keeps serving the current tables meanwhile).
 */
@ApiTags('projections')
@Controller('v1/projections')
export class ProjectionsAdminController {
  constructor(private readonly runtime: ProjectionRuntime) {}

  @Get()
  @RequireRole('operator', 'admin', 'auditor')
  @ApiOperation({ summary: 'Projector status of every read model (keys for all tenants only)' })
  @ApiResponse({ status: 403, description: 'forbidden: a key bound to one tenant' })
  async list(@CurrentCaller() caller: Caller): Promise<{ projections: ReadModelStatus[] }> {
    assertAllTenants(caller);
    return { projections: await this.runtime.status() };
  }

  @Get(':name')
  @RequireRole('operator', 'admin', 'auditor')
  @ApiOperation({ summary: 'Projector status of one read model' })
  @ApiResponse({ status: 403, description: 'forbidden: a key bound to one tenant' })
  @ApiResponse({ status: 404, description: 'not-found' })
  async one(@Param('name') name: string, @CurrentCaller() caller: Caller): Promise<ReadModelStatus> {
    assertAllTenants(caller);
    this.known(name);
    return (await this.runtime.status()).find((s) => s.name === name)!;
  }

  @Post(':name/rebuild')
  @HttpCode(202)
  @RequireRole('operator', 'admin')
  @ApiOperation({ summary: 'Rebuild a read model from zero, online; returns at once (202) with its status' })
  @ApiResponse({
    status: 202,
    description: 'rebuild started (or already running): poll GET /v1/projections/{name}',
  })
  @ApiResponse({
    status: 403,
    description: 'forbidden: a key bound to one tenant cannot rebuild shared tables',
  })
  async rebuild(@Param('name') name: string, @CurrentCaller() caller: Caller): Promise<ReadModelStatus> {
    this.known(name);
    if (caller.tenant !== ALL_TENANTS) {
      throw forbidden(
        'a rebuild replaces the read model of every tenant: it needs a key for all tenants (*)',
      );
    }
    return this.runtime.rebuild(name, caller.name);
  }

  private known(name: string): void {
    if (!this.runtime.model(name)) {
      throw new ProblemException(
        problem(
          'not-found',
          404,
          `no read model ${JSON.stringify(name)}; known: ${this.runtime.names.join(', ')}`,
        ),
      );
    }
  }
}
