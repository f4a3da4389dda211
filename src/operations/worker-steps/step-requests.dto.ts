import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { Transform } from 'class-transformer';
import { FencedRequestDto } from './fenced-request.dto.js';

/** Body of POST …/steps/{step}/start. */
export class StartStepRequestDto extends FencedRequestDto {}

/** Body of POST …/steps/{step}/complete. */
export class CompleteStepRequestDto extends FencedRequestDto {
  @ApiPropertyOptional({ description: 'What the step produced (any JSON), kept in the stream' })
  @Allow()
  @Transform(({ obj }) => (obj as { outputs?: unknown }).outputs)
  outputs?: unknown;
}
