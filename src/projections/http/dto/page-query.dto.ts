import { ApiPropertyOptional } from '@nestjs/swagger';
import { QueryInteger } from '../../../common/query-integer.js';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { IsInstant } from './time-filters.js';

/** Default and largest page size of list routes. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** `limit` and `cursor` of every paginated read-model route. */
export class PageQueryDto {
  @ApiPropertyOptional({ description: `Items per page, 1..${MAX_PAGE_SIZE}`, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page' })
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  cursor?: string;
}

/** An optional action filter (a key part). */
export class ActionFilterDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'invoice.create' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  action?: string;
}

/** Optional time range `[from, to)` (RFC 3339 date-times with a zone) and action filter. */
export class TimeRangeQueryDto extends ActionFilterDto {
  @ApiPropertyOptional({ description: 'Inclusive start, ISO 8601', example: '2026-03-01T00:00:00Z' })
  @IsOptional()
  @IsInstant()
  from?: string;

  @ApiPropertyOptional({ description: 'Exclusive end, ISO 8601', example: '2026-04-01T00:00:00Z' })
  @IsOptional()
  @IsInstant()
  to?: string;
}
