import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { compiledCheckOf } from './compiled-check.js';
import { refuseUnreadBody, RESERVED_MEMBERS } from './json-body.js';
import { problem } from './problem.js';
import { ProblemException } from './problem.exception.js';
import { unstorableStrings } from './unstorable-strings.js';

/** One field-level problem as listed in problem+json `errors[]`. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** class-validator's JSON type checks: when one fails, the field's other checks say nothing useful. */
const TYPE_CONSTRAINTS = new Set(['isInt', 'isNumber', 'isString', 'isBoolean', 'isObject', 'isArray']);

/** What a value is, in JSON's words, for a message: `the string "30000"`, `a number`, `null`. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/**
 * Flattens class-validator errors into `{field, message}` pairs with dotted paths
 * (`claims.3.leaseMs`): an absent required field gets only `<name> is required`, a field of the
 * wrong JSON type only its type message naming what was sent.
 */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const absent = e.value === undefined && e.constraints && !('whitelistValidation' in e.constraints);
    if (absent) {
      out.push({ field, message: `${e.property} is required` });
      continue;
    }
    const constraints = Object.entries(e.constraints ?? {});
    const typeChecks = constraints.filter(([name]) => TYPE_CONSTRAINTS.has(name));
    if (typeChecks.length > 0) {
      const sent = (name: string) =>
        name === 'isObject' && typeof e.value === 'string' ? 'a string' : jsonTypeOf(e.value);
      for (const [name, message] of typeChecks) {
        // `each` checks are about the items of an array, not the array
        const each = message.startsWith('each value in');
        out.push({ field, message: each ? message : `${message}, not ${sent(name)}` });
      }
      continue;
    }
    for (const [, message] of constraints) out.push({ field, message });
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, field));
  }
  return out;
}

/**
 * The problem for a list of field errors: `invalid-key` (400) when every error is in the operation
 * key, else `validation` (400). Both list the fields at fault.
 */
export function validationProblem(errors: readonly FieldError[]): ProblemException {
  const keyOnly = errors.length > 0 && errors.every((e) => e.field === 'key' || e.field.startsWith('key.'));
  const code = keyOnly ? 'invalid-key' : 'validation';
  const detail = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  return new ProblemException(problem(code, 400, detail, { errors }));
}

/** A DTO with this static flag validates its items one by one (a batch), storability included. */
export interface ValidatesItemsSeparately {
  readonly validatesItemsSeparately?: boolean;
}

/**
 * Refuses strings the database cannot store (U+0000, unpaired surrogates) in a parsed body.
 * @throws ProblemException 400 `invalid-key` (all in the key) / `validation`, naming the fields.
 */
export function assertStorable(body: unknown, prefix = ''): void {
  const issues = unstorableStrings(body, prefix);
  if (issues.length > 0) throw validationProblem(issues);
}

/**
 * A ValidationPipe that also refuses a non-JSON body (415), a DTO body that is not an object, and
 * unstorable strings ({@link assertStorable}). A body its DTO's `@CompiledCheck()` accepts skips
 * class-validator; any other takes its path, which words the refusal.
 */
class BodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') refuseUnreadBody(value);
    if (metadata.type === 'query' && metadata.data === undefined) refuseReservedParameters(value);
    const isDto =
      metadata.type === 'body' && typeof metadata.metatype === 'function' && metadata.metatype !== Object;
    if (isDto && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw validationProblem([
        { field: 'body', message: 'the request body must be a JSON object (content-type: application/json)' },
      ]);
    }
    const dto =
      isDto && compiledCheckOf(metadata.metatype)?.(value) ? value : await super.transform(value, metadata);
    if (isDto && !(metadata.metatype as ValidatesItemsSeparately).validatesItemsSeparately)
      assertStorable(value);
    return dto;
  }
}

/**
 * Refuses query parameters named in {@link RESERVED_MEMBERS} as any undeclared one is refused:
 * the framework strips them before class-validator sees them.
 */
function refuseReservedParameters(query: unknown): void {
  if (typeof query !== 'object' || query === null) return;
  const names = Object.keys(query).filter((name) => RESERVED_MEMBERS.has(name));
  if (names.length > 0) {
    throw validationProblem(names.map((field) => ({ field, message: `property ${field} should not exist` })));
  }
}

/**
 * The application's ValidationPipe: DTOs are validated by class-validator; unknown properties are
 * refused (a misspelt `leaseMS` must not be silently ignored); errors become problem+json.
 */
export function ledgerValidationPipe(): ValidationPipe {
  return new BodyValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    exceptionFactory: (errors) => validationProblem(flattenValidationErrors(errors)),
  });
}
