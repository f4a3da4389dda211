import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_KEY_PART_BYTES, MAX_REVISION } from '../ledger/index.js';
import { IsKeyPart } from './is-key-part.js';

const partDoc = (description: string, example: string) => ({
  description: `${description}. Non-empty, at most ${MAX_KEY_PART_BYTES} bytes of UTF-8, Unicode NFC, no control characters, no leading/trailing white space; case-sensitive.`,
  example,
});

/** The operation key as sent over HTTP (docs/api.md "Operation identity"). */
export class OperationKeyDto {
  @ApiProperty(partDoc('Company or legal entity; the isolation boundary', 'acme-gmbh'))
  @IsKeyPart('tenant')
  tenant!: string;

  @ApiProperty(partDoc('System the intent comes from', 'shopify'))
  @IsKeyPart('source')
  source!: string;

  @ApiProperty(partDoc('What happens, dotted', 'invoice.create'))
  @IsKeyPart('action')
  action!: string;

  @ApiProperty(partDoc('Stable identity of the document', 'order:812'))
  @IsKeyPart('subject')
  subject!: string;

  @ApiPropertyOptional({
    description: 'Amendment revision, integer >= 1; default 1',
    type: 'integer',
    example: 1,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_REVISION)
  revision?: number;
}
