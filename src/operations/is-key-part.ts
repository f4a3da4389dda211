import { registerDecorator, type ValidationOptions } from 'class-validator';
import { keyPartIssue, type KeyTextPart } from '../ledger/index.js';

/**
 * class-validator decorator applying the domain's key-part rules (keyPartIssue): non-empty,
 * <= 256 UTF-8 bytes, no control characters, no edge white space, NFC.
 */
export function IsKeyPart(part: KeyTextPart, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isKeyPart',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => keyPartIssue(part, value) === null,
        defaultMessage: (args) => keyPartIssue(part, args?.value)?.message ?? `${part} is invalid`,
      },
    });
  };
}
