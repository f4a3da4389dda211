import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '../role.js';

/** An API key as the admin routes show it, never its secret (docs/api.md "API keys"). */
export class ApiKeyViewDto {
  @ApiProperty({ description: '24 lowercase hex characters' })
  id!: string;

  @ApiProperty({ description: 'Recorded as the actor of operator actions' })
  name!: string;

  @ApiProperty({ description: 'A tenant, or `*` for every tenant' })
  tenant!: string;

  @ApiProperty({ enum: ROLES, isArray: true })
  roles!: readonly Role[];

  @ApiProperty({ enum: ['active', 'revoked'] })
  status!: 'active' | 'revoked';

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  rotatedAt!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  revokedAt!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  previousSecretExpiresAt!: string | null;
}

/** A key with its token: the answer of create and rotate, the only time the token is shown. */
export class IssuedApiKeyDto extends ApiKeyViewDto {
  @ApiProperty({ description: '`olk_<id>_<secret>`: send as Authorization: Bearer <token>' })
  token!: string;
}

/** GET /v1/admin/keys. */
export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyViewDto] })
  keys!: ApiKeyViewDto[];
}
