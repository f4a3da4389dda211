import { ApiProperty } from '@nestjs/swagger';

/** GET /health/live: the process runs. */
export class LiveDto {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

/** GET /health and /health/ready: the event store answers. */
export class HealthDto {
  @ApiProperty({
    enum: ['ok', 'degraded'],
    description: '`degraded`: serving, but see `warnings` (e.g. a restart could not open the store)',
  })
  status!: 'ok' | 'degraded';

  @ApiProperty({ enum: ['pglite', 'postgres', 'eventstoredb'], description: 'The store kind' })
  store!: string;

  @ApiProperty({ type: [String], required: false, description: 'Why the status is `degraded`' })
  warnings?: string[];

  @ApiProperty({
    type: [String],
    example: [
      'claim-start-step',
      'confirm-complete-step',
      'claim-request-id',
      'claims-batch',
      'step-not-performed',
    ],
    description:
      'The optional features this ledger accepts, for clients to ask once instead of learning from 400 answers; names are only added',
  })
  capabilities!: string[];
}
