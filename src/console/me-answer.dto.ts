import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '../auth/index.js';

/** The calling key as GET /v1/me shows it. */
export class MeDto {
  @ApiProperty({ description: 'The key id (`anonymous` with authentication disabled)' })
  keyId!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ description: 'A tenant, or `*` for every tenant' })
  tenant!: string;

  @ApiProperty({ enum: ROLES, isArray: true })
  roles!: Role[];
}
