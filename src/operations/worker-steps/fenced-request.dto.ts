import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Min } from 'class-validator';

/** Every worker follow-up carries the fencing token the claim returned. */
export class FencedRequestDto {
  @ApiProperty({ description: 'The fencingToken returned by the claim (the attempt number)', example: 1 })
  @IsInt()
  @Min(1)
  fencingToken!: number;
}
