import { CompiledCheck } from '../../common/compiled-check.js';
import { KeepAsParsed } from '../../common/keep-as-parsed.js';
import { ApiJsonProperty } from '../../common/openapi/json-value.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { FencedRequestDto } from '../fenced-request.dto.js';

/** The step a confirmation completes in the same append (round-trip shortcut). */
export class CompleteStepPartDto {
  @ApiProperty({
    description: 'A step started by this attempt (1-128 characters of A-Z a-z 0-9 . _ : -)',
    example: 'create-invoice',
  })
  @IsString()
  name!: string;

  @ApiJsonProperty({ required: false, description: 'What the step produced (any JSON), kept in the stream' })
  @Allow()
  @KeepAsParsed()
  outputs?: unknown;
}

/** Body of POST …/confirm. */
@CompiledCheck()
export class ConfirmRequestDto extends FencedRequestDto {
  @ApiPropertyOptional({
    description: 'Reference of the record at the destination (e.g. invoice id). "" and "0" are kept as sent.',
    example: 'INV-2024-0042',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  destinationRef?: string;

  @ApiJsonProperty({ required: false, description: 'Outcome details (any JSON), replayed to later claims' })
  @Allow()
  @KeepAsParsed()
  outputs?: unknown;

  @ApiPropertyOptional({
    type: CompleteStepPartDto,
    description:
      'Round-trip shortcut: complete this step (started by this attempt) in the same append as the confirmation',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CompleteStepPartDto)
  completeStep?: CompleteStepPartDto;
}
