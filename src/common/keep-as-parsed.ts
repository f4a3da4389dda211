import { Transform, type TransformFnParams } from 'class-transformer';

/**
 * A class-transformer transform that leaves a property (any JSON) exactly as parsed; the only
 * transform the compiled body check accepts.
 */
export function keepAsParsed({ obj, key }: TransformFnParams): unknown {
  return (obj as Record<string, unknown>)[key];
}

/** Property decorator: keep the property's value exactly as parsed ({@link keepAsParsed}). */
export function KeepAsParsed(): PropertyDecorator {
  return Transform(keepAsParsed);
}
