import { ApiProblems } from '../../common/openapi/api-problems.decorator.js';
import { ProjectionsListDto, ReadModelStatusDto } from './dto/read-model-answers.dto.js';
import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ALL_TENANTS, type Caller, CurrentCaller, RequireRole } from '../../auth/index.js';
import { forbidden } from '../../auth/auth-problems.js';
import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import { ProjectionRuntime } from '../projection-runtime.js';

/** A projector's status shows facts of every tenant: a key bound to one gets 403 `forbidden`. */
function assertAllTenants(caller: Caller): void {
  if (caller.tenant !== ALL_TENANTS) {
    throw forbidden('projector status spans every tenant: it needs a key for all tenants (*)');
  }
}

/** Operator commands on the projector (docs/api.md "Projector administration"). */
@ApiTags('projections')
@Controller('v1/projections')
export class ProjectionsAdminController {
  constructor(private readonly runtime: ProjectionRuntime) {}

  @Get()
  @RequireRole('operator', 'admin', 'auditor')
  @ApiOperation({ summary: 'Projector status of every read model (keys for all tenants only)' })
  @ApiOkResponse({ type: ProjectionsListDto })
  async list(@CurrentCaller() caller: Caller): Promise<ProjectionsListDto> {
    assertAllTenants(caller);
    return { projections: await this.runtime.status() };
  }

  @Get(':name')
  @RequireRole('operator', 'admin', 'auditor')
  @ApiOperation({ summary: 'Projector status of one read model' })
  @ApiOkResponse({ type: ReadModelStatusDto })
  @ApiProblems('not-found')
  async one(@Param('name') name: string, @CurrentCaller() caller: Caller): Promise<ReadModelStatusDto> {
    assertAllTenants(caller);
    this.known(name);
    return (await this.runtime.status()).find((s) => s.name === name)!;
  }

  @Post(':name/rebuild')
  @HttpCode(202)
  @RequireRole('operator', 'admin')
  @ApiOperation({ summary: 'Rebuild a read model from zero, online; returns at once (202) with its status' })
  @ApiAcceptedResponse({
    type: ReadModelStatusDto,
    description: 'rebuild started (or already running): poll GET /v1/projections/{name}',
  })
  @ApiProblems('not-found')
  async rebuild(@Param('name') name: string, @CurrentCaller() caller: Caller): Promise<ReadModelStatusDto> {
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
