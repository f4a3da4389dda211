import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsOptional, IsString, MaxLength } from 'class-validator';
import { FencedRequestDto } from './fenced-request.dto.js';

/** Body of POST …/confirm. */
export class ConfirmRequestDto extends FencedRequestDto {
  @ApiPropertyOptional({
    description: 'Reference of the record at the destination (e.g. invoice id). "" and "0" are kept as sent.',
    example: 'INV-2024-0042',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  destinationRef?: string;

  @ApiPropertyOptional({ description: 'Outcome details (any JSON), replayed to later claims' })
  @Allow()
  @Transform(({ obj }) => (obj as { outputs?: unknown }).outputs)
  outputs?: unknown;
}
