import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';

/** Any JSON value (object, array, string, number, boolean or null), as an OpenAPI 3.0 schema. */
export const JSON_VALUE_SCHEMA = {
  nullable: true,
  oneOf: [
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
  ],
};

/**
 * A property holding any JSON value (a claim's `payload`, `outputs`): without it the reflected
 * `unknown` becomes an object with no members, which clients type as an empty record.
 */
export function ApiJsonProperty(options: ApiPropertyOptions = {}): PropertyDecorator {
  return ApiProperty({ ...options, ...JSON_VALUE_SCHEMA } as ApiPropertyOptions);
}

/** A JSON object whose members this schema does not spell out (counters by name, options). */
export function ApiObjectProperty(options: ApiPropertyOptions = {}): PropertyDecorator {
  return ApiProperty({ type: 'object', additionalProperties: true, ...options } as ApiPropertyOptions);
}
