import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiJsonProperty, ApiObjectProperty } from '../../common/openapi/json-value.js';
import { APPLY_MODES, MATCH_MODES, PHASES } from '../run.js';

/** How far a run is. */
export class RunProgressDto {
  @ApiProperty({ type: 'integer' })
  done!: number;

  @ApiProperty({ type: 'integer' })
  total!: number;
}

/** Where to read a run. */
export class RunLinksDto {
  @ApiProperty()
  self!: string;

  @ApiProperty()
  items!: string;

  @ApiProperty()
  csv!: string;

  @ApiPropertyOptional({ description: 'awaiting_source only: where to PUT the source intents' })
  source?: string;
}

/** A reconciliation run (docs/reconciliation.md). */
export class ReconciliationRunDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  tenant!: string;

  @ApiProperty({ type: 'string', nullable: true })
  action!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  from!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  to!: string | null;

  @ApiProperty({ enum: MATCH_MODES })
  match!: string;

  @ApiProperty({ enum: APPLY_MODES })
  apply!: string;

  @ApiObjectProperty({ description: 'idField, refField, refPrefix, compare, awaitSource' })
  options!: object;

  @ApiProperty({ enum: ['receiving', 'awaiting_source', 'queued', 'running', 'completed', 'failed'] })
  status!: string;

  @ApiProperty({ enum: PHASES, nullable: true })
  phase!: string | null;

  @ApiProperty({ type: RunProgressDto })
  progress!: RunProgressDto;

  @ApiProperty({ type: 'integer' })
  destinationRows!: number;

  @ApiProperty({ type: 'integer', nullable: true })
  sourceRows!: number | null;

  @ApiProperty({ type: 'string', nullable: true })
  checkpoint!: string | null;

  @ApiJsonProperty({ description: 'Counts per category once completed, else null' })
  totals!: unknown;

  @ApiProperty({ type: 'string', nullable: true })
  error!: string | null;

  @ApiProperty({ description: "The creating key's name" })
  createdBy!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  startedAt!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  finishedAt!: string | null;

  @ApiProperty({ type: RunLinksDto })
  links!: RunLinksDto;
}

/** GET …/reconciliations: the latest runs, newest first. */
export class ReconciliationRunListDto {
  @ApiProperty()
  tenant!: string;

  @ApiProperty({ type: [ReconciliationRunDto] })
  items!: ReconciliationRunDto[];
}

/** GET …/reconciliations/{id}/items (JSON): a page of a completed run's items. */
export class ReconciliationItemsDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  tenant!: string;

  @ApiProperty({ type: 'string', nullable: true })
  category!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  checkpoint!: string | null;

  @ApiJsonProperty({ description: 'Counts per category' })
  totals!: unknown;

  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  items!: object[];

  @ApiProperty({ type: 'string', nullable: true })
  nextCursor!: string | null;
}
