import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MeDto } from './me-answer.dto.js';
import { type Caller, CurrentCaller, RequireRole, ROLES } from '../auth/index.js';

/** GET /v1/me: the presented key's id, name, tenant and roles (never the secret). Any role. */
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
