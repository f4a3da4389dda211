import type { JsonValue } from '../../ledger/index.js';
import type { ComparedField } from '../upload/destination-row.js';

/** One compared field that differs: the payload's value and the destination's, as texts. */
export interface FieldDifference {
  readonly field: string;
  readonly ledger: string | null;
  readonly destination: string | null;
}

/** The value at a JSON Pointer (RFC 6901), or undefined when the path does not exist. */
export function atPointer(value: JsonValue | null, pointer: string): JsonValue | undefined {
  if (pointer === '') return value ?? undefined;
  let v: JsonValue | undefined = value ?? undefined;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v)) v = /^(0|[1-9]\d*)$/.test(token) ? v[Number(token)] : undefined;
    else if (typeof v === 'object' && v !== null)
      v = Object.prototype.hasOwnProperty.call(v, token) ? v[token] : undefined;
    else return undefined;
  }
  return v;
}

/** A payload value as the text a CSV cell would carry: strings as they are, others as JSON. */
function asText(v: JsonValue | undefined): string | null {
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * The compared fields whose destination text differs from the payload's value at their pointer,
 * compared exactly as text (`120.00` differs from `120`); an empty cell equals missing or null.
 */
export function fieldDifferences(
  payload: JsonValue | null,
  fields: Readonly<Record<string, string | null>>,
  compare: readonly ComparedField[],
): FieldDifference[] {
  const out: FieldDifference[] = [];
  for (const { column, pointer } of compare) {
    const ledger = asText(atPointer(payload, pointer));
    const destination = fields[column] ?? null;
    if (ledger !== destination) out.push({ field: column, ledger, destination });
  }
  return out;
}
