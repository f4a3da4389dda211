import { Transform } from 'class-transformer';

/** An integer as a query string spells it: optional minus, decimal digits, nothing else. */
const DECIMAL_INTEGER = /^-?[0-9]{1,16}$/;

/**
 * Property decorator of a query DTO's integer parameter: a value of decimal digits becomes a
 * number; anything else (`0x10`, `1e1`, `16.0`, ` 16`, an empty value) stays the string it was,
 * so `@IsInt()` refuses it naming the parameter (400 `validation`). `@Type(() => Number)` would
 * pass it through `Number()`, which reads `0x10` as 16 and `''` as 0.
 */
export function QueryInteger(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value,
  );
}
