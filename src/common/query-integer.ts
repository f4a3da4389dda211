import { Transform } from 'class-transformer';

/** An integer as a query string spells it: optional minus, decimal digits, nothing else. */
const DECIMAL_INTEGER = /^-?[0-9]{1,16}$/;

/**
 * A query DTO's integer parameter: only decimal digits become a number, anything else stays a
 * string for `@IsInt()` to refuse (`Number()` would read `0x10` as 16 and `''` as 0).
 */
export function QueryInteger(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value,
  );
}
