import type { RequestFacts } from './idempotency-options.js';

/**
 * The default fingerprint input (draft-ietf-httpapi-idempotency-key-header §2.4): method, route
 * template and body, without the `exclude`d body fields (top-level names, or RFC 6901 JSON
 * Pointers such as `/meta/traceId`). The body is copied, never altered. Pure.
 */
export function fingerprintInput(facts: RequestFacts, exclude: readonly string[] = []): unknown {
  let body = facts.body;
  for (const field of exclude) body = without(body, field.startsWith('/') ? pointer(field) : [field]);
  return { method: facts.method, route: facts.route, body: body ?? null };
}

function pointer(p: string): string[] {
  return p
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function without(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0 || typeof value !== 'object' || value === null) return value;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(value)) {
    const i = Number(head);
    if (!Number.isInteger(i) || i < 0 || i >= value.length) return value;
    if (rest.length === 0) return value.filter((_, j) => j !== i);
    return value.map((v, j) => (j === i ? without(v, rest) : v));
  }
  const obj = value as Record<string, unknown>;
  if (!Object.hasOwn(obj, head)) return value;
  if (rest.length === 0) {
    const { [head]: _dropped, ...kept } = obj;
    return kept;
  }
  return { ...obj, [head]: without(obj[head], rest) };
}
