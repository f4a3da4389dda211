import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiObjectProperty } from '../../../common/openapi/json-value.js';

/** How far a read model is behind the event log. */
export class LagDto {
  @ApiProperty({ type: 'integer' })
  events!: number;

  @ApiProperty()
  seconds!: number;

  @ApiProperty({ description: 'More than 100 000 events behind: the count stopped' })
  capped!: boolean;
}

/** The members every read-model answer carries (docs/api.md "Read models"). */
export class FreshAnswerDto {
  @ApiProperty()
  tenant!: string;

  @ApiProperty({ description: 'The global position the read model has applied (decimal string)' })
  checkpoint!: string;

  @ApiProperty({ type: LagDto })
  lag!: LagDto;
}

/** A page of a read model. */
export class PageAnswerDto extends FreshAnswerDto {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as cursor for the next page; null on the last',
  })
  nextCursor!: string | null;
}

/** GET /v1/tenants/{tenant}/operations: status rows, newest change first. */
export class StatusListDto extends PageAnswerDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description:
      'Status rows: key, state, attempt, last error, last completed step, destination reference, lease, counts, firstSeen, lastChange',
  })
  items!: object[];
}

/** GET /v1/tenants/{tenant}/review-queue: operations awaiting a human, oldest first. */
export class ReviewQueueDto extends PageAnswerDto {
  @ApiObjectProperty({ description: 'Per reason: { count, oldestSince }' })
  summary!: object;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Review items with reason, since, ageMs, steps, keys and lease history',
  })
  items!: object[];
}

/** GET /v1/tenants/{tenant}/conflicts: payload conflicts with a field-level diff. */
export class ConflictsDto extends PageAnswerDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'key, both fingerprints, when, worker, field-level diff',
  })
  items!: object[];
}

/** GET /v1/tenants/{tenant}/metrics: duplicate-prevented counters. */
export class MetricsDto extends PageAnswerDto {
  @ApiProperty({ enum: ['hour', 'day'] })
  bucket!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  from!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  to!: string | null;

  @ApiObjectProperty({ description: 'Counter name → count' })
  totals!: object;

  @ApiObjectProperty({ description: 'Action → counters' })
  byAction!: object;

  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  buckets!: object[];
}

/** GET /v1/tenants/{tenant}/reconciliation (format=json). */
export class ReconciliationReportDto extends PageAnswerDto {
  @ApiProperty({ type: 'string', nullable: true })
  action!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  from!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  to!: string | null;

  @ApiObjectProperty({ description: 'Category → count' })
  totals!: object;

  @ApiObjectProperty({ description: 'Action → counts per category' })
  byAction!: object;

  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  items!: object[];
}

/** A rebuild in progress. */
export class RebuildStatusDto {
  @ApiProperty({ type: 'integer' })
  generation!: number;

  @ApiProperty()
  position!: string;

  @ApiProperty({ type: 'string', nullable: true })
  requestedAt!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  requestedBy!: string | null;
}

/** This process's projector of a read model. */
export class LocalProjectorDto {
  @ApiProperty()
  instanceId!: string;

  @ApiProperty()
  state!: string;
}

/** Projector status of one read model (docs/api.md "Projector administration"). */
export class ReadModelStatusDto {
  @ApiProperty({ enum: ['operations', 'metrics', 'conflicts'] })
  name!: string;

  @ApiProperty()
  checkpoint!: string;

  @ApiProperty({ type: LagDto })
  lag!: LagDto;

  @ApiProperty()
  state!: string;

  @ApiProperty({ type: 'string', nullable: true })
  holder!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  holderSince!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  heartbeatAt!: string | null;

  @ApiProperty({ type: 'integer' })
  generation!: number;

  @ApiProperty({ type: 'string', nullable: true })
  lastEventAt!: string | null;

  @ApiProperty({ type: RebuildStatusDto, nullable: true })
  rebuild!: RebuildStatusDto | null;

  @ApiProperty({ type: 'string', nullable: true })
  lastRebuildAt!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  lastError!: string | null;

  @ApiPropertyOptional({ type: LocalProjectorDto, nullable: true })
  local!: LocalProjectorDto | null;
}

/** GET /v1/projections. */
export class ProjectionsListDto {
  @ApiProperty({ type: [ReadModelStatusDto] })
  projections!: ReadModelStatusDto[];
}
