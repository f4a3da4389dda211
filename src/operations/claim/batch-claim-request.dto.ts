import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { ClaimRequestDto } from './claim-request.dto.js';

/** Most claims in one batch (docs/api.md "Claims"). */
export const MAX_BATCH_CLAIMS = 500;

/**
 * Body of POST /v1/claims/batch. Items are validated one by one by the handler, so one bad item
 * gets its own 400 in its slot and never sinks the others.
 */
export class BatchClaimRequestDto {
  /** Items are checked (storable strings included) one by one by the handler. */
  static readonly validatesItemsSeparately = true;

  @ApiProperty({ type: [ClaimRequestDto], maxItems: MAX_BATCH_CLAIMS, minItems: 1 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_CLAIMS)
  @Transform(({ obj }) => (obj as { claims?: unknown }).claims)
  claims!: unknown[];
}
