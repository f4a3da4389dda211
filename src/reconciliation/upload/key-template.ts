import { RowError } from './upload-errors.js';

/** A compiled template: literal text and `{column}` placeholders. */
export interface KeyTemplate {
  readonly text: string;
  readonly parts: readonly ({ readonly literal: string } | { readonly column: readonly string[] })[];
}

/**
 * Compiles a key template: `{column}` is replaced by a row's value of that column (`{a.b}` reads
 * a nested member of an NDJSON object), `{{` and `}}` are literal braces; everything else is
 * literal. E.g. `order:{id}` turns the row `{"id": 812}` into `order:812`.
 * @returns the template, or an error message.
 */
export function compileKeyTemplate(text: string): KeyTemplate | string {
  const parts: KeyTemplate['parts'][number][] = [];
  let literal = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ((c === '{' || c === '}') && text[i + 1] === c) {
      literal += c;
      i++;
    } else if (c === '{') {
      const end = text.indexOf('}', i);
      if (end < 0) return `unclosed "{" at ${i}`;
      const name = text.slice(i + 1, end).trim();
      if (name === '' || name.includes('{')) return `empty or nested placeholder at ${i}`;
      if (literal) parts.push({ literal });
      literal = '';
      parts.push({ column: name.split('.') });
      i = end;
    } else if (c === '}') {
      return `unmatched "}" at ${i} (write "}}" for a literal brace)`;
    } else literal += c;
  }
  if (literal) parts.push({ literal });
  return { text, parts };
}

/**
 * The template filled from one row. A placeholder whose column is missing, empty or not a string,
 * number or boolean is an error naming it.
 * @throws RowError.
 */
export function fillKeyTemplate(
  template: KeyTemplate,
  values: Readonly<Record<string, unknown>>,
  line: number,
): string {
  let out = '';
  for (const part of template.parts) {
    if ('literal' in part) {
      out += part.literal;
      continue;
    }
    let v: unknown = values;
    for (const name of part.column) {
      v =
        typeof v === 'object' && v !== null && !Array.isArray(v)
          ? (v as Record<string, unknown>)[name]
          : undefined;
    }
    const column = part.column.join('.');
    if (v === undefined || v === null || v === '')
      throw new RowError(line, column, `needed by the template ${template.text}`);
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
      throw new RowError(line, column, 'must be a string or a number');
    }
    out += String(v);
  }
  return out;
}
