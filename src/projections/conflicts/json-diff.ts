/** One difference between two JSON values, at an RFC 6901 JSON Pointer. */
export interface JsonDifference {
  /** `''` for the whole document, else e.g. `/lines/0/qty`. */
  readonly path: string;
  /** `changed`: both have the path with different values; `added`/`removed`: only the incoming / existing has it. */
  readonly kind: 'changed' | 'added' | 'removed';
  /** The existing (first claim's) value; absent for `added`. */
  readonly existing?: unknown;
  /** The incoming (conflicting claim's) value; absent for `removed`. */
  readonly incoming?: unknown;
}

/** Differences listed at most (a huge payload rewrite is summarised by its first ones). */
export const MAX_DIFFERENCES = 100;

const pointerPart = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Field-level diff of two JSON values (objects by sorted member, arrays by index). Deterministic.
 * @returns the differences, and whether the list was cut at {@link MAX_DIFFERENCES}.
 */
export function diffJson(
  existing: unknown,
  incoming: unknown,
): { differences: JsonDifference[]; truncated: boolean } {
  const out: JsonDifference[] = [];
  let truncated = false;
  const push = (d: JsonDifference) => {
    if (out.length >= MAX_DIFFERENCES) truncated = true;
    else out.push(d);
  };
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (truncated) return;
    if (isObject(a) && isObject(b)) {
      const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const name of names) {
        const p = `${path}/${pointerPart(name)}`;
        if (!(name in b)) push({ path: p, kind: 'removed', existing: a[name] });
        else if (!(name in a)) push({ path: p, kind: 'added', incoming: b[name] });
        else walk(a[name], b[name], p);
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        const p = `${path}/${i}`;
        if (i >= b.length) push({ path: p, kind: 'removed', existing: a[i] });
        else if (i >= a.length) push({ path: p, kind: 'added', incoming: b[i] });
        else walk(a[i], b[i], p);
      }
      return;
    }
    if (!sameScalar(a, b)) push({ path, kind: 'changed', existing: a, incoming: b });
  };
  walk(existing, incoming, '');
  return { differences: out, truncated };
}

function sameScalar(a: unknown, b: unknown): boolean {
  if (isObject(a) || isObject(b) || Array.isArray(a) || Array.isArray(b)) return false;
  return a === b;
}
