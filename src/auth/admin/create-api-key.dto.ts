import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, Length } from 'class-validator';
import { ROLES, type Role } from '../role.js';

/** Body of POST /v1/admin/keys. */
export class CreateApiKeyDto {
  @ApiProperty({
    description: 'The tenant the key acts for, or "*" for every tenant (only a "*" admin may)',
    example: 'acme-gmbh',
  })
  @IsString()
  @Length(1, 256)
  tenant!: string;

  @ApiProperty({ enum: ROLES, isArray: true, example: ['worker'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ROLES.length)
  @IsIn(ROLES, { each: true })
  roles!: Role[];

  @ApiProperty({ description: 'Holder of the key; recorded as actor on operator actions', example: 'ci' })
  @IsString()
  @Length(1, 256)
  name!: string;
}
