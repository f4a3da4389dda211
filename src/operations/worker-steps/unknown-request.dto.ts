import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { FencedRequestDto } from './fenced-request.dto.js';

/** Body of POST …/unknown. */
export class UnknownRequestDto extends FencedRequestDto {
  @ApiProperty({ example: 'the ticket API did not answer within 10 s' })
  @IsString()
  @Length(1, 4096)
  reason!: string;
}
