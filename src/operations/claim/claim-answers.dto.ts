import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiJsonProperty } from '../../common/openapi/json-value.js';
import { ProblemDetailsDto } from '../../common/openapi/problem-details.dto.js';
import { ReportedErrorAnswerDto } from '../reported-error-answer.dto.js';

const CLAIM_REASONS = [
  'first',
  'after_retryable_failure',
  'after_release',
  'after_lease_expiry',
  'after_approval',
  'same_claim_request',
] as const;

/** A step an earlier attempt completed: reuse its outputs instead of repeating it. */
export class CompletedStepDto {
  @ApiProperty({ example: 'create-invoice' })
  step!: string;

  @ApiProperty({ description: 'The key sent to the provider for this step (the same in every attempt)' })
  providerIdempotencyKey!: string;
}

/** The claim's `startStep`, started in the same append. */
export class StartedStepDto {
  @ApiProperty({ example: 'create-invoice' })
  name!: string;

  @ApiProperty({ description: 'The key to send the provider for this step' })
  providerIdempotencyKey!: string;
}

/** 201 of POST /v1/claims: acquired, go ahead with the fencing token (docs/api.md "Claims"). */
export class ClaimAcquiredDto {
  @ApiProperty({ format: 'uuid' })
  operationId!: string;

  @ApiProperty({ enum: ['in_progress'] })
  state!: 'in_progress';

  @ApiProperty({ type: 'integer', minimum: 1 })
  attempt!: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Equals attempt; every follow-up carries it' })
  fencingToken!: number;

  @ApiProperty({ format: 'date-time' })
  leaseExpiresAt!: string;

  @ApiProperty({ description: 'SHA-256 (hex) of the payload in RFC 8785 canonical form' })
  fingerprint!: string;

  @ApiProperty({
    enum: CLAIM_REASONS,
    description:
      'Why this attempt began; same_claim_request: a repeat of the claim request (claimRequestId) that acquired it',
  })
  reason!: (typeof CLAIM_REASONS)[number];

  @ApiProperty({ type: [CompletedStepDto] })
  completedSteps!: readonly CompletedStepDto[];

  @ApiPropertyOptional({ type: StartedStepDto, description: 'Present when the claim named startStep' })
  startedStep?: StartedStepDto;
}

/** Who resolved an operation, and why. */
export class ResolutionNoteDto {
  @ApiProperty()
  actor!: string;

  @ApiProperty()
  reason!: string;

  @ApiProperty({ format: 'date-time' })
  at!: string;
}

/** An operator's approval decision. */
export class ApprovalNoteDto {
  @ApiProperty({ enum: ['approved', 'rejected'] })
  decision!: string;

  @ApiProperty()
  actor!: string;

  @ApiProperty()
  reason!: string;
}

/** The recorded outcome a repeat claim of a finished key gets. */
export class ReplayedOutcomeDto {
  @ApiProperty({ type: 'string', nullable: true })
  destinationRef!: string | null;

  @ApiJsonProperty({ description: 'The confirmation outputs (any JSON), or null' })
  outputs!: unknown;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  confirmedAt!: string | null;

  @ApiProperty({ enum: ['worker', 'late_confirmation', 'operator', 'recovery'], nullable: true })
  confirmedVia!: 'worker' | 'late_confirmation' | 'operator' | 'recovery' | null;

  @ApiProperty({ type: ReportedErrorAnswerDto, nullable: true })
  error!: ReportedErrorAnswerDto | null;

  @ApiProperty({ type: 'boolean', nullable: true })
  retryable!: boolean | null;

  @ApiProperty({ type: ResolutionNoteDto, nullable: true })
  resolution!: ResolutionNoteDto | null;

  @ApiProperty({ type: ApprovalNoteDto, nullable: true })
  approval!: ApprovalNoteDto | null;
}

/** 200 of POST /v1/claims: the key is finished, its outcome replayed (`Idempotent-Replayed: true`). */
export class ClaimReplayedDto {
  @ApiProperty({ format: 'uuid' })
  operationId!: string;

  @ApiProperty({ enum: ['confirmed', 'failed', 'abandoned', 'rejected'] })
  state!: 'confirmed' | 'failed' | 'abandoned' | 'rejected';

  @ApiProperty({ enum: [true] })
  replayed!: true;

  @ApiProperty({ type: ReplayedOutcomeDto })
  outcome!: ReplayedOutcomeDto;
}

/** One slot of a batch: the status and body the single claim route would have answered. */
export class BatchSlotDto {
  @ApiProperty({ type: 'integer', description: 'Position of the claim in the request' })
  index!: number;

  @ApiProperty({ type: 'integer', example: 201 })
  status!: number;

  @ApiProperty({
    description: '201 ClaimAcquired, 200 ClaimReplayed, or a problem (4xx/5xx)',
    oneOf: [
      { $ref: '#/components/schemas/ClaimAcquiredDto' },
      { $ref: '#/components/schemas/ClaimReplayedDto' },
      { $ref: '#/components/schemas/ProblemDetailsDto' },
    ],
  })
  body!: ClaimAcquiredDto | ClaimReplayedDto | ProblemDetailsDto;
}

/** 200 of POST /v1/claims/batch: one slot per claim, in input order. */
export class BatchClaimAnswerDto {
  @ApiProperty({ type: [BatchSlotDto] })
  results!: BatchSlotDto[];
}
