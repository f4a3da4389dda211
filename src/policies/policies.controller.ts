import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../common/openapi/api-problems.decorator.js';
import { PolicyHistoryDto, PolicyVersionDto } from './policy-answers.dto.js';
import { assertTenantAccess } from '../auth/assert-tenant-access.js';
import type { Caller } from '../auth/caller.js';
import { CurrentCaller } from '../auth/current-caller.decorator.js';
import { RequireRole } from '../auth/require-role.decorator.js';
import { problem } from '../common/problem.js';
import { ProblemException } from '../common/problem.exception.js';
import { validationProblem } from '../common/validation.js';
import { keyPartIssue, parseActionPolicy } from '../ledger/index.js';
import { PolicyStore, PolicyVersionConflictError } from './policy-store.js';
import { ANY_ACTION } from './policy-stream.js';
import { SetPolicyRequestDto } from './set-policy.dto.js';

function checkNames(tenant: string, action: string): void {
  const issues = [
    keyPartIssue('tenant', tenant),
    action === ANY_ACTION ? null : keyPartIssue('action', action),
  ];
  const found = issues.filter((i) => i !== null);
  if (found.length)
    throw validationProblem(found.map((i) => ({ field: i.field.replace('key.', ''), message: i.message })));
}

/** Action policies per tenant (docs/api.md "Action policies"); `{action}` = `*` is the tenant's default. */
@ApiTags('policies')
@Controller('v1/tenants/:tenant/policies/:action')
export class PoliciesController {
  constructor(private readonly policies: PolicyStore) {}

  @Get()
  @RequireRole('auditor', 'operator')
  @ApiOperation({ summary: 'The policy in force for an action, with its version' })
  @ApiOkResponse({ type: PolicyVersionDto })
  @ApiProblems('forbidden-tenant')
  async get(
    @Param('tenant') tenant: string,
    @Param('action') action: string,
    @CurrentCaller() caller: Caller,
  ): Promise<PolicyVersionDto> {
    checkNames(tenant, action);
    assertTenantAccess(caller, tenant);
    return this.policies.policyFor(tenant, action);
  }

  @Get('history')
  @RequireRole('auditor', 'operator')
  @ApiOperation({ summary: 'Every version of the policy, oldest first, with actor and reason' })
  @ApiOkResponse({ type: PolicyHistoryDto })
  @ApiProblems('forbidden-tenant')
  async history(
    @Param('tenant') tenant: string,
    @Param('action') action: string,
    @CurrentCaller() caller: Caller,
  ): Promise<PolicyHistoryDto> {
    checkNames(tenant, action);
    assertTenantAccess(caller, tenant);
    return { tenant, action, versions: await this.policies.history(tenant, action) };
  }

  @Put()
  @RequireRole('operator')
  @ApiOperation({ summary: 'Set a new version of the policy' })
  @ApiOkResponse({ type: PolicyVersionDto, description: 'The new version' })
  @ApiProblems('forbidden-tenant', 'policy-version-conflict')
  async set(
    @Param('tenant') tenant: string,
    @Param('action') action: string,
    @Body() body: SetPolicyRequestDto,
    @CurrentCaller() caller: Caller,
  ): Promise<PolicyVersionDto> {
    checkNames(tenant, action);
    assertTenantAccess(caller, tenant);
    const parsed = parseActionPolicy(body.policy);
    if (!parsed.ok) throw validationProblem(parsed.issues);
    try {
      return await this.policies.setPolicy(
        tenant,
        action,
        parsed.value,
        { actor: caller.name, reason: body.reason },
        body.expectedVersion,
      );
    } catch (err) {
      if (err instanceof PolicyVersionConflictError) {
        throw new ProblemException(
          problem(
            'policy-version-conflict',
            409,
            `the policy is at version ${err.actualVersion}; re-read and retry`,
            {
              actualVersion: err.actualVersion,
            },
          ),
        );
      }
      throw err;
    }
  }
}
