/**
 * What a job may return, checked at run time (a job in plain JavaScript gets no type check):
 * nothing (or `{}`), or an object with `destinationRef` (a string) and/or `outputs` (JSON). Extra
 * fields beside those two are ignored, as TypeScript's structural typing lets them through.
 *
 * @returns why `result` is not such a value — naming the shape to return — or undefined when it
 *   is. Pure.
 */
export function jobResultProblem(result: unknown): string | undefined {
  if (result === undefined || result === null) return undefined;
  const expected = 'a job returns { destinationRef?: string, outputs?: JSON } or nothing';
  if (typeof result !== 'object' || Array.isArray(result))
    return `${expected}; this one returned ${describe(result)} (put the destination's reference in destinationRef)`;
  const fields = result as Record<string, unknown>;
  const names = Object.keys(fields);
  // `{}` is "nothing"; other fields without either of the two would all be dropped
  if (names.length > 0 && !('destinationRef' in fields) && !('outputs' in fields))
    return `${expected}; this one returned an object with neither, only ${names.slice(0, 5).join(', ')}`;
  if (fields['destinationRef'] !== undefined && typeof fields['destinationRef'] !== 'string')
    return `${expected}; its destinationRef is ${describe(fields['destinationRef'])}, not a string`;
  return undefined;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return `a ${typeof value}`;
}
