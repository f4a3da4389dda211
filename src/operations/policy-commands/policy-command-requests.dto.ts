import { CompiledCheck } from '../../common/compiled-check.js';
import { ApiObjectProperty } from '../../common/openapi/json-value.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { MAX_LEASE_MS, MIN_LEASE_MS } from '../../ledger/index.js';
import { FencedRequestDto } from '../fenced-request.dto.js';
import { NotBlank } from '../../common/not-blank.js';

/** Body of operator actions: the reason is required; the actor comes from the API key. */
export class OperatorActionRequestDto {
  @ApiProperty({ example: 'finance confirmed the customer wants the invoice' })
  @IsString()
  @Length(1, 4096)
  @NotBlank()
  reason!: string;
}

/** Body of POST …/duplicate-effects/acknowledge. */
export class AcknowledgeRequestDto extends OperatorActionRequestDto {
  @ApiPropertyOptional({
    description: 'References cleaned up; all open duplicates when omitted',
    example: ['INV-43'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(1024, { each: true })
  refs?: string[];
}

const VERDICTS = ['found', 'not_found', 'inconclusive'] as const;

/** Body of POST …/evidence (a recovery worker's lookup at the destination). */
export class EvidenceRequestDto {
  @ApiProperty({
    enum: VERDICTS,
    description: 'found → confirmed; not_found → released; inconclusive → stays unknown',
  })
  @IsIn(VERDICTS)
  verdict!: (typeof VERDICTS)[number];

  @ApiPropertyOptional({ description: 'Required with `found`: the record found', example: 'TCK-000004' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  destinationRef?: string;

  @ApiObjectProperty({
    description: 'The key fields the lookup matched on (any JSON values), recorded as evidence',
    example: { externalRef: 'acme/shop/invoice.create/order%3A812@1', amount: '120.00' },
  })
  @Allow()
  @Transform(({ obj }) => (obj as { checkedFields?: unknown }).checkedFields)
  checkedFields!: unknown;

  @ApiPropertyOptional({ example: 'matched by external reference and amount' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  note?: string;
}

/** Body of POST …/lease/renew (heartbeat). */
@CompiledCheck()
export class RenewLeaseRequestDto extends FencedRequestDto {
  @ApiProperty({
    description: `New lease length from now, ms (${MIN_LEASE_MS}..${MAX_LEASE_MS}, and the policy's max)`,
  })
  @IsInt()
  @Min(MIN_LEASE_MS)
  @Max(MAX_LEASE_MS)
  leaseMs!: number;
}
