import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';
import { FencedRequestDto } from '../fenced-request.dto.js';

/** Body of POST …/unknown. */
export class UnknownRequestDto extends FencedRequestDto {
  @ApiProperty({ example: 'the ticket API did not answer within 10 s' })
  @IsString()
  @Length(1, 4096)
  reason!: string;

  @ApiProperty({
    required: false,
    description:
      'The call timed out (the SDK sets it for its own timeouts): the outcome is labelled reported_timeout; else reported_by_worker',
  })
  @IsOptional()
  @IsBoolean()
  timedOut?: boolean;
}
