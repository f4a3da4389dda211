import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy, type ValidationArguments } from 'class-validator';

/**
 * One rule, one message: the fencing token is an integer ≥ 1 (a JSON number, not a string).
 * Separate `@IsInt` and `@Min` would answer `"1"` with two messages that contradict each other.
 */
function IsFencingToken(): PropertyDecorator {
  return ValidateBy({
    name: 'isFencingToken',
    validator: {
      validate: (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 1,
      defaultMessage: ({ value }: ValidationArguments) =>
        typeof value === 'string'
          ? `fencingToken must be a JSON number, not the string ${JSON.stringify(value)}: send the fencingToken the claim returned as it came (e.g. 1)`
          : 'fencingToken must be an integer >= 1: the fencingToken the claim returned',
    },
  });
}

/** Every worker follow-up carries the fencing token the claim returned. */
export class FencedRequestDto {
  @ApiProperty({
    description: 'The fencingToken returned by the claim (the attempt number)',
    example: 1,
    minimum: 1,
    type: 'integer',
  })
  @IsFencingToken()
  fencingToken!: number;
}
