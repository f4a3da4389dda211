import { Transform, type TransformFnParams } from 'class-transformer';

/**
 * class-transformer's transform that leaves a property exactly as parsed (a payload or outputs of
 * any JSON): class-transformer must not rebuild it. The compiled body check knows this function,
 * and only it, as a transform that changes nothing (src/common/compiled-check.ts).
 */
export function keepAsParsed({ obj, key }: TransformFnParams): unknown {
  return (obj as Record<string, unknown>)[key];
}

/** Property decorator: keep the property's value exactly as parsed ({@link keepAsParsed}). */
export function KeepAsParsed(): PropertyDecorator {
  return Transform(keepAsParsed);
}
