import { ApiPropertyOptional } from '@nestjs/swagger';
import { QueryInteger } from '../../common/query-integer.js';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { IsInstant } from '../../projections/http/dto/time-filters.js';
import { CATEGORIES } from '../categories.js';
import { APPLY_MODES, MATCH_MODES } from '../run.js';

/** Query of POST /v1/tenants/{tenant}/reconciliations (the body is the destination export). */
export class CreateReconciliationQueryDto {
  @ApiPropertyOptional({ description: 'Only operations of this action', example: 'invoice.create' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  action?: string;

  @ApiPropertyOptional({ description: 'Window start (inclusive, ISO 8601) of first-seen times' })
  @IsOptional()
  @IsInstant()
  from?: string;

  @ApiPropertyOptional({ description: 'Window end (exclusive, ISO 8601)' })
  @IsOptional()
  @IsInstant()
  to?: string;

  @ApiPropertyOptional({
    enum: MATCH_MODES,
    default: 'operationId',
    description: 'What the reference column holds',
  })
  @IsOptional()
  @IsIn(MATCH_MODES)
  match?: (typeof MATCH_MODES)[number];

  @ApiPropertyOptional({
    enum: APPLY_MODES,
    default: 'none',
    description: 'evidence: resolve unknown outcomes found',
  })
  @IsOptional()
  @IsIn(APPLY_MODES)
  apply?: (typeof APPLY_MODES)[number];

  @ApiPropertyOptional({ default: 'id', description: "Column of the destination's record id" })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  idField?: string;

  @ApiPropertyOptional({ default: 'reference', description: 'Column of the reference the worker stored' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  refField?: string;

  @ApiPropertyOptional({ description: 'Text stripped from the start of each reference before matching' })
  @IsOptional()
  @IsString()
  @Length(1, 512)
  refPrefix?: string;

  @ApiPropertyOptional({
    description:
      'Columns compared with the payload: `col` (pointer /col) or `col=/json/pointer`, comma-separated',
    example: 'title,total=/amount/total',
  })
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  compare?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'Wait for a source-intents upload',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  awaitSource?: 'true' | 'false';
}

/** Query of PUT /v1/tenants/{tenant}/reconciliations/{id}/source (the body is the source intents). */
export class SourceUploadQueryDto {
  @ApiPropertyOptional({ description: 'Rows give the operation id in this column (no key templates)' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  operationIdField?: string;

  @ApiPropertyOptional({ default: '{source}', description: 'Key template of the source part' })
  @IsOptional()
  @IsString()
  @Length(1, 512)
  sourceTemplate?: string;

  @ApiPropertyOptional({
    description: "Key template of the action part (default: the run's action, else {action})",
  })
  @IsOptional()
  @IsString()
  @Length(1, 512)
  actionTemplate?: string;

  @ApiPropertyOptional({ default: '{subject}', example: 'order:{id}' })
  @IsOptional()
  @IsString()
  @Length(1, 512)
  subjectTemplate?: string;

  @ApiPropertyOptional({ description: 'Key template of the revision (default: 1)' })
  @IsOptional()
  @IsString()
  @Length(1, 512)
  revisionTemplate?: string;
}

/** Query of GET …/reconciliations/{id}/items. */
export class ItemsQueryDto {
  @ApiPropertyOptional({ enum: CATEGORIES })
  @IsOptional()
  @IsIn(CATEGORIES)
  category?: string;

  @ApiPropertyOptional({ enum: ['json', 'csv'], default: 'json' })
  @IsOptional()
  @IsIn(['json', 'csv'])
  format?: 'json' | 'csv';

  @ApiPropertyOptional({ default: 50, description: 'Items per page, 1..500' })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  cursor?: string;
}

/** Query of GET /v1/tenants/{tenant}/reconciliations. */
export class ListRunsQueryDto {
  @ApiPropertyOptional({ default: 20, description: 'Latest runs, 1..100' })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}
