import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import type { Resolution } from '../../ledger/index.js';
import { NotBlank } from '../../common/not-blank.js';

const RESOLUTIONS: readonly Resolution[] = ['confirmed', 'not_found', 'abandoned'];

/** Body of POST …/resolve (operator). */
export class ResolveRequestDto {
  @ApiProperty({ enum: RESOLUTIONS })
  @IsIn(RESOLUTIONS)
  resolution!: Resolution;

  @ApiPropertyOptional({
    description:
      'Required with `confirmed`: the record found at the destination, or null to say explicitly that it is unknown (the reason says why; POST …/reference adds it later)',
    type: String,
    nullable: true,
  })
  @ValidateIf((_o, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  destinationRef?: string | null;

  @ApiProperty({ example: 'found INV-42 in the billing system by external reference' })
  @IsString()
  @Length(1, 4096)
  @NotBlank()
  reason!: string;

  @ApiPropertyOptional({
    description:
      "Ignored as identity: the actor recorded is the API key's holder. A different value is kept as `requestedActor`.",
    example: 'ops:maria',
  })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  actor?: string;
}

/** Body of POST …/reference (operator): the reference of an operation confirmed without one. */
export class ReferenceRequestDto {
  @ApiProperty({ description: 'The record at the destination', example: 'INV-2024-0045' })
  @IsString()
  @MaxLength(1024)
  destinationRef!: string;

  @ApiProperty({ example: 'found INV-2024-0045 in the billing system by external reference' })
  @IsString()
  @Length(1, 4096)
  @NotBlank()
  reason!: string;

  @ApiPropertyOptional({
    description:
      "Ignored as identity: the actor recorded is the API key's holder. A different value is kept as `requestedActor`.",
    example: 'ops:maria',
  })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  actor?: string;
}
