import { ApiPropertyOptional } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, validateSync } from 'class-validator';
import { flattenValidationErrors, validationProblem } from '../../common/validation.js';
import { MAX_ROTATION_OVERLAP_MS } from '../rotate-api-key.js';

/** Body of POST /v1/admin/keys/{keyId}/rotate (the body may be left out). */
export class RotateApiKeyDto {
  @ApiPropertyOptional({
    description: 'How long the old secret keeps working, ms (0: stops at once); default 0',
    type: 'integer',
    maximum: MAX_ROTATION_OVERLAP_MS,
    example: 3_600_000,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_ROTATION_OVERLAP_MS)
  overlapMs?: number;
}

/**
 * The overlap of a rotate request: 0 without a body, else the validated `overlapMs`.
 * @throws ProblemException 400 `validation`.
 */
export function rotationOverlapOf(body: unknown): number {
  if (body === undefined) return 0;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationProblem([{ field: 'body', message: 'the request body must be a JSON object' }]);
  }
  const dto = plainToInstance(RotateApiKeyDto, body);
  const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw validationProblem(flattenValidationErrors(errors));
  return dto.overlapMs ?? 0;
}
