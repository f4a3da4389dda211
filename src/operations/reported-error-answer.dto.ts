import { ApiProperty } from '@nestjs/swagger';

/** The reported error of a failed operation. */
export class ReportedErrorAnswerDto {
  @ApiProperty()
  code!: string;

  @ApiProperty()
  message!: string;
}
