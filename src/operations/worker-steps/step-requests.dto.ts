import { ApiJsonProperty } from '../../common/openapi/json-value.js';
import { Allow } from 'class-validator';
import { Transform } from 'class-transformer';
import { FencedRequestDto } from './fenced-request.dto.js';

/** Body of POST …/steps/{step}/start. */
export class StartStepRequestDto extends FencedRequestDto {}

/** Body of POST …/steps/{step}/complete. */
export class CompleteStepRequestDto extends FencedRequestDto {
  @ApiJsonProperty({ required: false, description: 'What the step produced (any JSON), kept in the stream' })
  @Allow()
  @Transform(({ obj }) => (obj as { outputs?: unknown }).outputs)
  outputs?: unknown;
}
