import { isISO8601, ValidateBy, type ValidationOptions } from 'class-validator';
import { validationProblem } from '../../../common/validation.js';

/** An RFC 3339 §5.6 `date-time`: date, time with seconds (fraction optional) and a zone. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * Whether `value` is an RFC 3339 date-time with a zone; without one it would be a guess
 * (docs/api.md "Read models").
 */
export function isInstant(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    DATE_TIME.test(value) &&
    isISO8601(value, { strict: true }) &&
    !Number.isNaN(Date.parse(value))
  );
}

/** class-validator decorator of {@link isInstant}; the message names the parameter. */
export function IsInstant(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isInstant',
      validator: {
        validate: isInstant,
        defaultMessage: (args) =>
          `${args?.property ?? 'the time'} must be a date-time with a zone (RFC 3339), e.g. 2026-03-01T00:00:00Z`,
      },
    },
    options,
  );
}

/**
 * Checks a `[from, to)` window whose bounds passed {@link IsInstant}.
 * @throws ProblemException 400 `validation` naming `to` when it is not after `from`.
 */
export function assertTimeRange(from: string | undefined, to: string | undefined): void {
  if (from !== undefined && to !== undefined && Date.parse(from) >= Date.parse(to)) {
    throw validationProblem([{ field: 'to', message: 'to must be after from' }]);
  }
}
