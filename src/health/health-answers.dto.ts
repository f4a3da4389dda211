import { ApiProperty } from '@nestjs/swagger';

/** GET /health/live: the process runs. */
export class LiveDto {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

/** GET /health and /health/ready: the event store answers. */
export class HealthDto extends LiveDto {
  @ApiProperty({ enum: ['pglite', 'postgres', 'eventstoredb'], description: 'The store kind' })
  store!: string;
}
