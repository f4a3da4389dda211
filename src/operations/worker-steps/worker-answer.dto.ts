import { OPERATION_STATES } from '@operation-ledger/protocol';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Every state an operation can be in (docs/api.md "States"). */
export { OPERATION_STATES };

/** 200 of a fenced worker follow-up (docs/api.md "Worker follow-ups"). */
export class WorkerAnswerDto {
  @ApiProperty({ format: 'uuid' })
  operationId!: string;

  @ApiProperty({ enum: OPERATION_STATES, description: 'The state after the command' })
  state!: string;

  @ApiPropertyOptional({
    description: 'steps/{step}/start only: the key to send the provider (the same in every attempt)',
  })
  providerIdempotencyKey?: string;

  @ApiProperty({ description: 'true: the same command was already recorded; nothing new was written' })
  alreadyRecorded!: boolean;
}
