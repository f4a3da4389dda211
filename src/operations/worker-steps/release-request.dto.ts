import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { FencedRequestDto } from '../fenced-request.dto.js';

/** Body of POST …/release. */
export class ReleaseRequestDto extends FencedRequestDto {
  @ApiPropertyOptional({ example: 'shutting down before the call' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  reason?: string;
}
