import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { plainToInstance, Type } from 'class-transformer';
import {
  Allow,
  IsDefined,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  validateSync,
  ValidateNested,
} from 'class-validator';
import { CompiledCheck, compiledCheckOf } from '../../common/compiled-check.js';
import { KeepAsParsed } from '../../common/keep-as-parsed.js';
import { ApiJsonProperty } from '../../common/openapi/json-value.js';
import { unstorableStrings } from '../../common/unstorable-strings.js';
import { flattenValidationErrors } from '../../common/validation.js';
import {
  DEFAULT_LEASE_MS,
  MAX_LEASE_MS,
  MAX_SUPERSEDED_REVISIONS,
  MIN_LEASE_MS,
  invalid,
  type Checked,
  type ClaimRequest,
  type JsonValue,
} from '../../ledger/index.js';
import { OperationKeyDto } from '../operation-key.dto.js';

/**
 * Body of POST /v1/claims (docs/api.md "Claims"), with the checks a batch item gets
 * ({@link validateClaimBody}) and its plain-data form for the domain ({@link claimRequestOf}).
 */
@CompiledCheck()
export class ClaimRequestDto {
  @ApiProperty({ type: OperationKeyDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => OperationKeyDto)
  key!: OperationKeyDto;

  @ApiJsonProperty({
    description:
      'The approved business payload (any JSON). Its RFC 8785 canonical form is fingerprinted; numbers that a double cannot carry exactly are refused.',
    example: { customer: 'c-17', lines: [{ sku: 'A-1', qty: 2 }] },
  })
  @Allow()
  @KeepAsParsed()
  payload?: unknown;

  @ApiPropertyOptional({
    // No schema `default`: generated clients would type the field as required.
    description: `Lease length in ms (${MIN_LEASE_MS}..${MAX_LEASE_MS}, and at most the action policy's maxLeaseMs); default: the policy's defaultLeaseMs (${DEFAULT_LEASE_MS} without a policy)`,
    type: 'integer',
    example: DEFAULT_LEASE_MS,
  })
  @IsOptional()
  @IsInt()
  @Min(MIN_LEASE_MS)
  @Max(MAX_LEASE_MS)
  leaseMs?: number;

  @ApiPropertyOptional({
    description: `Amendments: the older revision of the same subject this claim supersedes (below key.revision, at most ${MAX_SUPERSEDED_REVISIONS} revisions back). Claims of older revisions are then refused 409 superseded.`,
    example: 1,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  supersedes?: number;

  @ApiPropertyOptional({ description: 'Identifies the worker for audit', example: 'worker-3' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  workerId?: string;

  @ApiPropertyOptional({
    description:
      'Round-trip shortcut: a step (1-128 characters of A-Z a-z 0-9 . _ : -) started in the same append when the claim acquires; the 201 answer then carries startedStep { name, providerIdempotencyKey }. Any other answer starts nothing.',
    example: 'create-invoice',
  })
  @IsOptional()
  @IsString()
  startStep?: string;

  @ApiPropertyOptional({
    description:
      "The client's id of this claim request (1-128 characters of A-Z a-z 0-9 . _ : -), the same on its retries: a repeat while the attempt it acquired still holds the lease is answered 201 as that acquisition (reason same_claim_request), nothing recorded.",
    example: '5f0c9a52-3b7e-4d0e-9a51-2f4b8f1c6d20',
  })
  @IsOptional()
  @IsString()
  claimRequestId?: string;
}

/**
 * Validates one parsed batch item with the same rules as the body of POST /v1/claims.
 * @returns the DTO, or an `invalid` rejection naming the fields (400 `validation` / `invalid-key`).
 */
export function validateClaimBody(body: unknown): Checked<ClaimRequestDto> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid({ field: '', message: 'a claim must be a JSON object' });
  }
  // a body the compiled check accepts, class-validator accepts too (src/common/compiled-check.ts)
  let dto = body as ClaimRequestDto;
  if (compiledCheckOf(ClaimRequestDto)?.(body) !== true) {
    dto = plainToInstance(ClaimRequestDto, body);
    const errors = validateSync(dto, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
    });
    if (errors.length > 0) return invalid(...flattenValidationErrors(errors));
  }
  const unstorable = unstorableStrings(body);
  if (unstorable.length > 0) return invalid(...unstorable);
  return { ok: true, value: dto };
}

/**
 * The claim request of a validated body, as plain data for the domain's checks. The payload's
 * size is measured here, once: the UTF-8 bytes of its JSON text.
 */
export function claimRequestOf(dto: ClaimRequestDto): ClaimRequest {
  const payload = dto.payload as JsonValue | undefined;
  return {
    key: dto.key,
    payload,
    payloadBytes: payload === undefined ? 0 : Buffer.byteLength(JSON.stringify(payload), 'utf8'),
    leaseMs: dto.leaseMs ?? null,
    workerId: dto.workerId ?? null,
    supersedes: dto.supersedes ?? null,
    startStep: dto.startStep ?? null,
    claimRequestId: dto.claimRequestId ?? null,
  };
}
