import { CompiledCheck } from '../../common/compiled-check.js';
import { KeepAsParsed } from '../../common/keep-as-parsed.js';
import { ApiJsonProperty } from '../../common/openapi/json-value.js';
import { ApiProperty } from '@nestjs/swagger';
import { Allow, IsString, Length } from 'class-validator';
import { FencedRequestDto } from '../fenced-request.dto.js';

/** Body of POST …/steps/{step}/start. */
@CompiledCheck()
export class StartStepRequestDto extends FencedRequestDto {}

/** Body of POST …/steps/{step}/complete. */
@CompiledCheck()
export class CompleteStepRequestDto extends FencedRequestDto {
  @ApiJsonProperty({ required: false, description: 'What the step produced (any JSON), kept in the stream' })
  @Allow()
  @KeepAsParsed()
  outputs?: unknown;
}

/** Body of POST …/steps/{step}/not-performed. */
export class NotPerformedRequestDto extends FencedRequestDto {
  @ApiProperty({ example: 'connect ECONNREFUSED 10.0.0.7:443: the request was never written' })
  @IsString()
  @Length(1, 4096)
  reason!: string;
}
