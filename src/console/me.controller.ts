import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MeDto } from './me-answer.dto.js';
import { type Caller, CurrentCaller, RequireRole, ROLES } from '../auth/index.js';

/**
 * GET /v1/me: who the presented API key is — its id, holder name, tenant (`*` = every tenant)
 * and roles — so a client (the console) can show the right tenant and only the actions the key
 * may take. Any role; never the secret.
 */
@ApiTags('auth')
@Controller('v1/me')
export class MeController {
  @Get()
  @RequireRole(...ROLES)
  @ApiOperation({ summary: "The calling key's id, name, tenant and roles" })
  @ApiOkResponse({ type: MeDto })
  me(@CurrentCaller() caller: Caller): MeDto {
    return { keyId: caller.keyId, name: caller.name, tenant: caller.tenant, roles: [...caller.roles] };
  }
}
