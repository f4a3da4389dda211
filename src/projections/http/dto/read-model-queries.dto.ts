import {
  OPERATION_STATES,
  REVIEW_REASONS,
  type OperationListFilter,
  type OperationState,
  type ReviewQueueFilter,
  type ReviewReason,
} from '@operation-ledger/protocol';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { ActionFilterDto, TimeRangeQueryDto } from './page-query.dto.js';
import { IsInstant } from './time-filters.js';

/** States an operation can be in and reasons of the review queue (filters). */
export { OPERATION_STATES, REVIEW_REASONS };

/** Query of GET /v1/tenants/{tenant}/operations (the status view). */
export class ListOperationsQueryDto extends ActionFilterDto implements OperationListFilter {
  @ApiPropertyOptional({ enum: OPERATION_STATES })
  @IsOptional()
  @IsIn(OPERATION_STATES)
  state?: OperationState;

  @ApiPropertyOptional({ example: 'shopify' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  source?: string;

  @ApiPropertyOptional({ description: 'Operations whose subject starts with this', example: 'order:' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  subjectPrefix?: string;

  @ApiPropertyOptional({ description: 'Only operations whose last change is at or after this (ISO 8601)' })
  @IsOptional()
  @IsInstant()
  changedSince?: string;

  @ApiPropertyOptional({
    enum: ['desc', 'asc'],
    default: 'desc',
    description: 'By last change (projection order)',
  })
  @IsOptional()
  @IsIn(['desc', 'asc'])
  order?: 'desc' | 'asc';
}

/** Query of GET /v1/tenants/{tenant}/review-queue. */
export class ReviewQueueQueryDto extends ActionFilterDto implements ReviewQueueFilter {
  @ApiPropertyOptional({ enum: REVIEW_REASONS })
  @IsOptional()
  @IsIn(REVIEW_REASONS)
  reason?: ReviewReason;
}

/** Query of GET /v1/tenants/{tenant}/conflicts. */
export class ConflictsQueryDto extends ActionFilterDto {
  @ApiPropertyOptional({ description: 'Only conflicts at or after this (ISO 8601)' })
  @IsOptional()
  @IsInstant()
  since?: string;
}

/** Query of GET /v1/tenants/{tenant}/metrics. */
export class MetricsQueryDto extends TimeRangeQueryDto {
  @ApiPropertyOptional({
    enum: ['minute', 'hour', 'day'],
    default: 'day',
    description: 'minute: for short ranges (counted from the upgrade that added it, unless rebuilt)',
  })
  @IsOptional()
  @IsIn(['minute', 'hour', 'day'])
  bucket?: 'minute' | 'hour' | 'day';
}

/** Query of GET /v1/tenants/{tenant}/reconciliation. */
export class ReconciliationQueryDto extends TimeRangeQueryDto {
  @ApiPropertyOptional({
    enum: ['json', 'csv'],
    default: 'json',
    description: 'csv: every matching operation, one line each',
  })
  @IsOptional()
  @IsIn(['json', 'csv'])
  format?: 'json' | 'csv';
}
