import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ProblemDetails } from '../problem.js';

/** One field at fault in a problem: a dotted path (`key.subject`, `claims.3`) and why. */
export class FieldErrorDto {
  @ApiProperty({ example: 'key.subject' })
  field!: string;

  @ApiProperty({ example: 'must not be empty' })
  message!: string;
}

/**
 * The RFC 9457 problem document of every 4xx and 5xx answer (docs/api.md "Problem details"),
 * served as `application/problem+json`. Refusals add extension members (`operationId`, `state`,
 * `retryAfterMs`, `existingFingerprint`, …), so the schema allows other members.
 */
export class ProblemDetailsDto implements ProblemDetails {
  [extension: string]: unknown;

  @ApiProperty({ example: 'https://operation-ledger.dev/problems/payload-conflict' })
  type!: string;

  @ApiProperty({ description: 'Fixed per code', example: 'This key was used with a different payload' })
  title!: string;

  @ApiProperty({ type: 'integer', example: 422 })
  status!: number;

  @ApiProperty({ description: 'This occurrence, for people (not for parsing)' })
  detail!: string;

  @ApiProperty({ description: 'The problem code; `type` ends in it', example: 'payload-conflict' })
  code!: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'The fields at fault' })
  errors?: FieldErrorDto[];
}
