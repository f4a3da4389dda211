import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OPERATION_STATES } from '../operation-states.js';

/** 200 of POST …/resolve (docs/api.md "Recovery and operator workflows"). */
export class ResolveAnswerDto {
  @ApiProperty({ format: 'uuid' })
  operationId!: string;

  @ApiProperty({ enum: OPERATION_STATES })
  state!: string;

  @ApiProperty({ enum: ['confirmed', 'not_found', 'abandoned'] })
  resolution!: string;

  @ApiProperty({ description: "The recorded actor: the API key's name" })
  actor!: string;

  @ApiPropertyOptional({ description: 'The body’s actor, when it differs from the key’s name' })
  requestedActor?: string;
}

/** 200 of POST …/reference. */
export class ReferenceAnswerDto {
  @ApiProperty({ format: 'uuid' })
  operationId!: string;

  @ApiProperty({ enum: OPERATION_STATES })
  state!: string;

  @ApiProperty()
  destinationRef!: string;

  @ApiProperty({ description: 'true: this reference was already recorded' })
  alreadyRecorded!: boolean;

  @ApiProperty()
  actor!: string;

  @ApiPropertyOptional()
  requestedActor?: string;
}
