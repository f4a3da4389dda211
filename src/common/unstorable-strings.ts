/** A field at fault, as listed in problem+json `errors[]`. */
interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** U+0000, or a UTF-16 surrogate without its partner. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this rule looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The fields of a parsed body whose strings PostgreSQL cannot store: U+0000 (SQLSTATE 22P05) and
 * unpaired surrogates (22P02). Dotted paths (`payload.lines.0.note`), at most `limit`.
 */
export function unstorableStrings(value: unknown, prefix = '', limit = 10): FieldError[] {
  const found: FieldError[] = [];
  const visit = (v: unknown, path: string) => {
    if (found.length >= limit) return;
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v))
        found.push({
          field: path || 'body',
          message: 'must not contain U+0000 or unpaired UTF-16 surrogates',
        });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, path ? `${path}.${i}` : String(i)));
    } else if (typeof v === 'object' && v !== null) {
      for (const [name, item] of Object.entries(v)) {
        const at = path ? `${path}.${name}` : name;
        if (UNSTORABLE.test(name))
          found.push({
            field: at,
            message: 'member names must not contain U+0000 or unpaired UTF-16 surrogates',
          });
        visit(item, at);
      }
    }
  };
  visit(value, prefix);
  return found;
}
