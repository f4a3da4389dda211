import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsObject, IsString, Length, ValidateNested } from 'class-validator';
import { FencedRequestDto } from '../fenced-request.dto.js';

/** The error a worker reports. */
export class ReportedErrorDto {
  @ApiProperty({ example: 'destination.timeout' })
  @IsString()
  @Length(1, 256)
  code!: string;

  @ApiProperty({ example: 'the CRM answered 503' })
  @IsString()
  @Length(0, 4096)
  message!: string;
}

/** Body of POST …/fail. */
export class FailRequestDto extends FencedRequestDto {
  @ApiProperty({ type: ReportedErrorDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ReportedErrorDto)
  error!: ReportedErrorDto;

  @ApiProperty({ description: 'true: the key may be claimed again; false: final failure, replayed' })
  @IsBoolean()
  retryable!: boolean;
}
