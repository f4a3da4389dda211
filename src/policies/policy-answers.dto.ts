import { ApiProperty } from '@nestjs/swagger';

/** An action policy's fields (docs/api.md "Action policies"); all present in an answer. */
export class ActionPolicyDto {
  @ApiProperty({ type: 'integer', minimum: 1000, maximum: 3600000, description: 'ms; default 30000' })
  defaultLeaseMs!: number;

  @ApiProperty({ type: 'integer', minimum: 1000, maximum: 3600000, description: 'ms; default 3600000' })
  maxLeaseMs!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'ms, at least 3600000; null keeps forever (default)',
  })
  retentionMs!: number | null;

  @ApiProperty({ enum: ['tombstone', 'refuse'], description: 'default tombstone' })
  afterRetention!: 'tombstone' | 'refuse';

  @ApiProperty({ description: 'default false' })
  requireApproval!: boolean;

  @ApiProperty({ description: 'default true' })
  replayAllowed!: boolean;

  @ApiProperty({
    type: [String],
    description: 'RFC 6901 JSON Pointers left out of the fingerprint; default []',
  })
  fingerprintExcludedFields!: readonly string[];

  @ApiProperty({ enum: ['worker_lookup', 'operator_only'], description: 'default worker_lookup' })
  recoveryMode!: 'worker_lookup' | 'operator_only';
}

/** A version of a policy: GET …/policies/{action}, PUT's answer, and each entry of the history. */
export class PolicyVersionDto {
  @ApiProperty()
  tenant!: string;

  @ApiProperty({ description: '`*` is the tenant default' })
  action!: string;

  @ApiProperty({ type: ActionPolicyDto })
  policy!: ActionPolicyDto;

  @ApiProperty({ type: 'integer', description: '0 with source default: the built-in policy' })
  version!: number;

  @ApiProperty({ enum: ['action', 'tenant-default', 'default'] })
  source!: 'action' | 'tenant-default' | 'default';

  @ApiProperty({ type: 'string', nullable: true })
  setBy!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  reason!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  setAt!: string | null;
}

/** GET …/policies/{action}/history: every version, oldest first. */
export class PolicyHistoryDto {
  @ApiProperty()
  tenant!: string;

  @ApiProperty()
  action!: string;

  @ApiProperty({ type: [PolicyVersionDto] })
  versions!: readonly PolicyVersionDto[];
}
