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
}
