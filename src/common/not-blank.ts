import { Matches } from 'class-validator';

/**
 * A text recorded for people to read later (a reason): at least one character that is not white
 * space (JavaScript's `\s`, which covers Unicode spaces). The empty string passes here, so that a
 * `Length(1, …)` beside it gives the one message for it. Error message: `<field> must not be blank`.
 */
export function NotBlank(): PropertyDecorator {
  return Matches(/^$|\S/u, { message: '$property must not be blank' });
}
