import { ApiProperty } from '@nestjs/swagger';
import { OPERATION_STATES } from '../operation-states.js';

/** 200 of approve, reject, replay and acknowledge (docs/api.md "Recovery and operator workflows"). */
export class PolicyCommandAnswerDto {
  @ApiProperty({ format: 'uuid' })
  operationId!: string;

  @ApiProperty({ enum: OPERATION_STATES, description: 'The state after the command' })
  state!: string;

  @ApiProperty({ type: 'integer', description: 'The action policy applied; 0 for the built-in default' })
  policyVersion!: number;
}

/** 200 of POST …/evidence. */
export class EvidenceAnswerDto extends PolicyCommandAnswerDto {
  @ApiProperty({ description: 'false: the same evidence was already recorded' })
  recorded!: boolean;
}

/** 200 of POST …/lease/renew: the lease runs `leaseMs` from now. */
export class LeaseRenewedAnswerDto extends PolicyCommandAnswerDto {
  @ApiProperty({ format: 'date-time' })
  leaseExpiresAt!: string;

  @ApiProperty()
  alreadyRecorded!: boolean;
}
