import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiJsonProperty } from '../../common/openapi/json-value.js';
import { OperationKeyDto } from '../operation-key.dto.js';
import { ReportedErrorAnswerDto } from '../reported-error-answer.dto.js';
import { OPERATION_STATES } from '../operation-states.js';
import type { UnknownCause } from '../../ledger/index.js';

/** The current lease; `expired` is judged on the server's clock. */
export class LeaseViewDto {
  @ApiProperty({ type: 'string', nullable: true })
  workerId!: string | null;

  @ApiProperty({ type: 'integer' })
  attempt!: number;

  @ApiProperty({ format: 'date-time' })
  acquiredAt!: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt!: string;

  @ApiProperty()
  expired!: boolean;
}

/** One named step of the operation. */
export class StepViewDto {
  @ApiProperty()
  step!: string;

  @ApiProperty({ enum: ['started', 'completed', 'not_performed'] })
  status!: 'started' | 'completed' | 'not_performed';

  @ApiProperty({ type: 'integer', description: 'The attempt that last started or completed it' })
  attempt!: number;

  @ApiProperty()
  providerIdempotencyKey!: string;

  @ApiProperty({ format: 'date-time' })
  startedAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  completedAt!: string | null;

  @ApiJsonProperty({ description: 'What the step produced (any JSON), or null' })
  outputs!: unknown;
}

/** The recorded confirmation. */
export class ConfirmationViewDto {
  @ApiProperty({ type: 'string', nullable: true })
  destinationRef!: string | null;

  @ApiJsonProperty({ description: 'The confirmation outputs (any JSON), or null' })
  outputs!: unknown;

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ type: 'integer' })
  attempt!: number;

  @ApiProperty({ enum: ['worker', 'late_confirmation', 'operator', 'recovery'] })
  via!: 'worker' | 'late_confirmation' | 'operator' | 'recovery';
}

/** A second, different effect reported for the operation. */
export class DuplicateEffectViewDto {
  @ApiProperty()
  ref!: string;

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ type: 'integer' })
  attempt!: number;

  @ApiProperty({ description: 'An operator confirmed it was cleaned up' })
  acknowledged!: boolean;
}

/** Why and since when the outcome is unknown. */
export class UnknownViewDto {
  @ApiProperty({ enum: ['reported_timeout', 'lease_expired'] })
  reason!: 'reported_timeout' | 'lease_expired';

  @ApiProperty({
    enum: ['reported_by_worker', 'reported_timeout', 'lease_expired_after_step'],
    description:
      'The true label: reported by the worker, reported as a timeout, or the lease expired after a step started',
  })
  cause!: UnknownCause;

  @ApiProperty({ type: 'string', nullable: true, description: "The worker's own text (its report's reason)" })
  detail!: string | null;

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ type: 'integer' })
  attempt!: number;
}

/** An operator's resolution. */
export class ResolutionViewDto {
  @ApiProperty({ enum: ['confirmed', 'not_found', 'abandoned'] })
  resolution!: 'confirmed' | 'not_found' | 'abandoned';

  @ApiProperty()
  actor!: string;

  @ApiProperty()
  reason!: string;

  @ApiProperty({ format: 'date-time' })
  at!: string;
}

/** The point in time a time-travel read answers. */
export class AsOfDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'The requested stream revision (decimal)' })
  revision!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  time!: string | null;
}

/** 200 of GET /v1/operations/{operationId} (docs/api.md "Reading one operation"). */
export class OperationStatusDto {
  @ApiProperty({ format: 'uuid' })
  operationId!: string;

  @ApiProperty({ type: OperationKeyDto, nullable: true })
  key!: OperationKeyDto | null;

  @ApiProperty({ enum: OPERATION_STATES })
  state!: string;

  @ApiProperty({ type: 'integer' })
  attempt!: number;

  @ApiProperty({ type: 'integer', description: 'The current fencing token (= attempt)' })
  fencingToken!: number;

  @ApiProperty({ type: 'string', nullable: true })
  fingerprint!: string | null;

  @ApiJsonProperty({
    nullable: true,
    description: 'The payload of the claim — what was intended; `fingerprint` is its SHA-256 (RFC 8785)',
  })
  payload!: unknown;

  @ApiPropertyOptional({ type: 'boolean', nullable: true, description: 'Set when state is failed' })
  retryable?: boolean | null;

  @ApiProperty({ type: LeaseViewDto, nullable: true })
  lease!: LeaseViewDto | null;

  @ApiProperty({ type: [StepViewDto] })
  steps!: StepViewDto[];

  @ApiProperty({ type: 'string', nullable: true })
  destinationRef!: string | null;

  @ApiProperty({ type: ConfirmationViewDto, nullable: true })
  confirmation!: ConfirmationViewDto | null;

  @ApiProperty({ type: [DuplicateEffectViewDto] })
  duplicateEffects!: readonly DuplicateEffectViewDto[];

  @ApiProperty({ type: ReportedErrorAnswerDto, nullable: true })
  lastError!: ReportedErrorAnswerDto | null;

  @ApiProperty({ type: UnknownViewDto, nullable: true })
  unknown!: UnknownViewDto | null;

  @ApiProperty({ type: ResolutionViewDto, nullable: true })
  resolution!: ResolutionViewDto | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  createdAt!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  updatedAt!: string | null;

  @ApiProperty({ type: 'integer', description: "The decision stream's revision (0-based)" })
  revision!: number;

  @ApiPropertyOptional({ type: AsOfDto, description: 'Time travel (?atRevision, ?asOf) only' })
  asOf?: AsOfDto;
}

/** Who caused an event: the API key's name, plus the worker id where a worker acted, or a job. */
export class EventActorDto {
  @ApiProperty({
    example: 'invoice-sync (pid-15318)',
    description: 'For people: key name (worker id), or the job',
  })
  label!: string;

  @ApiProperty({ type: 'string', nullable: true })
  keyName!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  keyId!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  workerId!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'sweeper' })
  job!: string | null;
}

/** One recorded event, from the decision or the audit stream. */
export class HistoryEventDto {
  @ApiProperty({ example: 'OperationClaimed' })
  type!: string;

  @ApiProperty()
  streamName!: string;

  @ApiProperty({ type: 'integer' })
  streamPosition!: number;

  @ApiProperty({ type: 'integer' })
  globalPosition!: number;

  @ApiProperty({ format: 'date-time' })
  recordedAt!: string;

  @ApiJsonProperty({ description: "The event's data" })
  data!: unknown;

  @ApiJsonProperty({ description: 'correlationId, causationId, schemaVersion, keyId, keyName, job' })
  metadata!: unknown;

  @ApiProperty({
    type: () => EventActorDto,
    description: 'Who caused the event, the same way for every type',
  })
  actor!: EventActorDto;
}

/** 200 of GET /v1/operations/{operationId}/history: both streams in commit order. */
export class OperationHistoryDto {
  @ApiProperty({ format: 'uuid' })
  operationId!: string;

  @ApiProperty({ type: OperationKeyDto })
  key!: OperationKeyDto;

  @ApiProperty()
  streamName!: string;

  @ApiProperty()
  auditStreamName!: string;

  @ApiProperty({ type: [HistoryEventDto] })
  events!: HistoryEventDto[];
}
