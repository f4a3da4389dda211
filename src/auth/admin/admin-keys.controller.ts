import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../common/openapi/api-problems.decorator.js';
import { ApiKeyListDto, ApiKeyViewDto, IssuedApiKeyDto } from './api-key-answers.dto.js';
import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import { validationProblem } from '../../common/validation.js';
import { ApiKeyInputError } from '../api-key-input.js';
import { isKeyId } from '../api-key-token.js';
import { ApiKeyService } from '../api-key.service.js';
import { assertTenantAccess } from '../assert-tenant-access.js';
import { ALL_TENANTS, canAccessTenant, type Caller } from '../caller.js';
import { CurrentCaller } from '../current-caller.decorator.js';
import { RequireRole } from '../require-role.decorator.js';
import { ApiKeyRevokedError } from '../rotate-api-key.js';
import { CreateApiKeyDto } from './create-api-key.dto.js';
import { RotateApiKeyDto, rotationOverlapOf } from './rotate-api-key.dto.js';

const keyNotFound = (id: string) => new ProblemException(problem('not-found', 404, `no API key ${id}`));

/**
 * Key management over HTTP (role `admin`). A tenant admin manages its own tenant's keys only; a
 * `*` admin manages all. Keys of other tenants answer 404, like unknown ids. Tokens appear in the
 * answers of create and rotate only.
 */
@ApiTags('admin')
@Controller('v1/admin/keys')
@RequireRole('admin')
export class AdminKeysController {
  constructor(private readonly keys: ApiKeyService) {}

  @Post()
  @ApiOperation({ summary: 'Create an API key; its token is shown in this answer only' })
  @ApiCreatedResponse({ type: IssuedApiKeyDto })
  @ApiProblems('forbidden-tenant')
  async create(@Body() body: CreateApiKeyDto, @CurrentCaller() caller: Caller): Promise<IssuedApiKeyDto> {
    assertTenantAccess(caller, body.tenant);
    try {
      const { key, token } = await this.keys.create(body);
      return { ...key, token };
    } catch (err) {
      if (err instanceof ApiKeyInputError)
        throw validationProblem([{ field: err.field, message: err.message }]);
      throw err;
    }
  }

  @Get()
  @ApiOperation({ summary: 'List the API keys this admin may see (never their secrets)' })
  @ApiOkResponse({ type: ApiKeyListDto })
  @ApiProblems('validation', 'forbidden-tenant')
  async list(@CurrentCaller() caller: Caller, @Query('tenant') tenant?: string): Promise<ApiKeyListDto> {
    if (tenant !== undefined) assertTenantAccess(caller, tenant);
    const scope = tenant ?? (caller.tenant === ALL_TENANTS ? undefined : caller.tenant);
    return { keys: await this.keys.list(scope) };
  }

  @Post(':keyId/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key at once (idempotent)' })
  @ApiOkResponse({ type: ApiKeyViewDto, description: 'The key, revoked (also when it already was)' })
  @ApiProblems('not-found')
  async revoke(@Param('keyId') id: string, @CurrentCaller() caller: Caller): Promise<ApiKeyViewDto> {
    await this.visibleKey(id, caller);
    return (await this.keys.revoke(id)) ?? Promise.reject(keyNotFound(id));
  }

  @Post(':keyId/rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Give a key a new secret; the old one works for overlapMs more' })
  @ApiOkResponse({ type: IssuedApiKeyDto })
  @ApiProblems('not-found', 'key-revoked')
  @ApiBody({ type: RotateApiKeyDto, required: false })
  async rotate(
    @Param('keyId') id: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
  ): Promise<IssuedApiKeyDto> {
    const overlapMs = rotationOverlapOf(body);
    await this.visibleKey(id, caller);
    try {
      const issued = await this.keys.rotate(id, overlapMs);
      if (!issued) throw keyNotFound(id);
      return { ...issued.key, token: issued.token };
    } catch (err) {
      if (err instanceof ApiKeyRevokedError)
        throw new ProblemException(problem('key-revoked', 409, err.message));
      throw err;
    }
  }

  /** @throws 400 for a malformed id; 404 for an unknown key or one of another tenant. */
  private async visibleKey(id: string, caller: Caller): Promise<void> {
    if (!isKeyId(id))
      throw validationProblem([{ field: 'keyId', message: 'keyId must be 24 lowercase hex characters' }]);
    const record = await this.keys.find(id);
    if (!record || !canAccessTenant(caller, record.tenant)) throw keyNotFound(id);
  }
}
