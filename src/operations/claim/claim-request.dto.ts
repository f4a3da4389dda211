import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
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
  ValidateNested,
} from 'class-validator';
import {
  DEFAULT_LEASE_MS,
  MAX_LEASE_MS,
  MAX_SUPERSEDED_REVISIONS,
  MIN_LEASE_MS,
} from '../../ledger/index.js';
import { OperationKeyDto } from './operation-key.dto.js';

/** Body of POST /v1/claims (docs/api.md "Claims"). */
export class ClaimRequestDto {
  @ApiProperty({ type: OperationKeyDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => OperationKeyDto)
  key!: OperationKeyDto;

  @ApiProperty({
    description:
      'The approved business payload (any JSON). Its RFC 8785 canonical form is fingerprinted; numbers that a double cannot carry exactly are refused.',
    example: { customer: 'c-17', lines: [{ sku: 'A-1', qty: 2 }] },
  })
  @Allow()
  // Keep the payload exactly as parsed: class-transformer must not rebuild it.
  @Transform(({ obj }) => (obj as { payload?: unknown }).payload)
  payload?: unknown;

  @ApiPropertyOptional({
    description: `Lease length in ms (${MIN_LEASE_MS}..${MAX_LEASE_MS}, and at most the action policy's maxLeaseMs); default: the policy's defaultLeaseMs`,
    default: DEFAULT_LEASE_MS,
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
}
