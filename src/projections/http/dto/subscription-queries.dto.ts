import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { IsEventId } from './event-id.js';
import { OPERATION_STATES, REVIEW_REASONS } from './read-model-queries.dto.js';

/** `lastEventId` (same as the `Last-Event-ID` header, for clients that cannot set headers) and an action filter. */
export class SubscriptionQueryDto {
  @ApiPropertyOptional({
    description: 'Resume after this event id (a checkpoint); the Last-Event-ID header wins',
  })
  @IsOptional()
  @IsEventId()
  lastEventId?: string;

  @ApiPropertyOptional({ example: 'invoice.create' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  action?: string;
}

/** Filters of GET /v1/tenants/{tenant}/operations/changes. */
export class OperationChangesQueryDto extends SubscriptionQueryDto {
  @ApiPropertyOptional({ enum: OPERATION_STATES, description: 'Only changes INTO this state' })
  @IsOptional()
  @IsIn(OPERATION_STATES)
  state?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 256)
  source?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 256)
  subjectPrefix?: string;
}

/** Filters of GET /v1/tenants/{tenant}/review-queue/changes. */
export class ReviewChangesQueryDto extends SubscriptionQueryDto {
  @ApiPropertyOptional({
    enum: REVIEW_REASONS,
    description: 'Only changes touching an entry with this reason',
  })
  @IsOptional()
  @IsIn(REVIEW_REASONS)
  reason?: string;
}
