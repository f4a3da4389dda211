import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import type { Resolution } from '../../ledger/index.js';

const RESOLUTIONS: readonly Resolution[] = ['confirmed', 'not_found', 'abandoned'];

/** Body of POST …/resolve (operator). */
export class ResolveRequestDto {
  @ApiProperty({ enum: RESOLUTIONS })
  @IsIn(RESOLUTIONS)
  resolution!: Resolution;

  @ApiPropertyOptional({ description: 'With `confirmed`: the record found at the destination' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  destinationRef?: string;

  @ApiProperty({ example: 'found INV-42 in the billing system by external reference' })
  @IsString()
  @Length(1, 4096)
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
