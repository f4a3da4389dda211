import { unstorableStrings } from '../../common/unstorable-strings.js';
import { RowError } from './upload-errors.js';

/**
 * The text of one cell: a string as it is, a number or boolean (NDJSON) as its JSON text; empty,
 * missing or null cells are null. Refused: objects/arrays, text longer than `maxChars`, and text
 * the database cannot store (U+0000, unpaired surrogates).
 * @throws RowError naming the line and column.
 */
export function cellText(value: unknown, line: number, column: string, maxChars: number): string | null {
  if (value === undefined || value === null || value === '') return null;
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else throw new RowError(line, column, 'must be a string or a number');
  if (text.length > maxChars) throw new RowError(line, column, `longer than ${maxChars} characters`);
  if (unstorableStrings(text, column).length > 0) {
    throw new RowError(
      line,
      column,
      'holds characters that cannot be stored (U+0000 or an unpaired surrogate)',
    );
  }
  return text;
}
