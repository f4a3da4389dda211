import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ApiObjectProperty } from '../common/openapi/json-value.js';
import { Allow, IsInt, IsString, Length, Min, ValidateIf } from 'class-validator';
import { NotBlank } from '../common/not-blank.js';

/** Body of PUT /v1/tenants/{tenant}/policies/{action}. */
export class SetPolicyRequestDto {
  @ApiObjectProperty({
    description:
      'The policy (missing fields take defaults): defaultLeaseMs, maxLeaseMs, retentionMs (null = forever), afterRetention (tombstone|refuse), requireApproval, replayAllowed, fingerprintExcludedFields (JSON Pointers), recoveryMode (worker_lookup|operator_only)',
    example: { maxLeaseMs: 120000, replayAllowed: false, fingerprintExcludedFields: ['/meta/traceId'] },
  })
  @Allow()
  @Transform(({ obj }) => (obj as { policy?: unknown }).policy)
  policy!: unknown;

  @ApiProperty({
    description: 'Why the policy changes (recorded)',
    example: 'payments must never be replayed',
  })
  @IsString()
  @Length(1, 4096)
  @NotBlank()
  reason!: string;

  @ApiPropertyOptional({
    description:
      'The version edited (0 = none yet); a newer one answers 409. Omit it (not null) to write on top',
    example: 2,
  })
  // absent means "no guard"; null is refused (400), not taken for absent: a lost-update guard
  // should not be switched off by a client that serialises a missing value as null
  @ValidateIf((_dto, value) => value !== undefined)
  @IsInt()
  @Min(0)
  expectedVersion?: number;
}
