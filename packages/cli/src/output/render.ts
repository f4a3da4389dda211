import Table from 'cli-table3';
import type { OutputStream } from '../io.js';

type Cell = string | number | boolean | null | undefined;

/** No colours; `compact`: no rule between rows (one line per row), a rule under the header only. */
const plain = { head: [] as string[], border: [] as string[], compact: true };

/**
 * A table (cli-table3, no colours so output can be piped and compared) as text without a final
 * newline: compact — no rule between rows, so a list is as many lines as it has rows (plus frame).
 */
export function table(head: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const t = new Table({ head: [...head], style: plain, wordWrap: true });
  for (const row of rows) t.push(row.map(cellText));
  return t.toString();
}

/** A two-column "field | value" table, for one record. */
export function fields(pairs: readonly (readonly [string, Cell])[]): string {
  const t = new Table({ style: plain, wordWrap: true });
  for (const [k, v] of pairs) t.push({ [k]: cellText(v) });
  return t.toString();
}

function cellText(v: Cell): string {
  if (v === null || v === undefined || v === '') return '-';
  return String(v);
}

/** Writes `value` as one line of JSON (for lists, call it once per item: NDJSON). */
export function writeJsonLine(out: OutputStream, value: unknown): void {
  out.write(`${JSON.stringify(value)}\n`);
}

/** Writes `text` followed by a newline. */
export function writeLine(out: OutputStream, text = ''): void {
  out.write(`${text}\n`);
}

/** `12s`, `5m 3s`, `3h 12m`, `2d 4h`: an age or duration in ms, two units at most. */
export function formatAge(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  const s = Math.max(0, Math.floor(ms / 1000));
  const units: [number, string][] = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'm'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let rest = s;
  for (const [size, unit] of units) {
    if (rest >= size || (unit === 's' && parts.length === 0)) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

/**
 * The canonical-looking `tenant/source/action/subject@revision` of a key, for people: parts as
 * they are but for `%` and `/`, percent-encoded so that the text, pasted into a command, names the
 * same operation (`parseOperationRef` percent-decodes each part).
 */
export function keyText(key: unknown): string {
  if (!key || typeof key !== 'object') return '-';
  const k = key as Record<string, unknown>;
  const part = (v: unknown) => String(v).replace(/%/g, '%25').replace(/\//g, '%2F');
  return `${part(k.tenant)}/${part(k.source)}/${part(k.action)}/${part(k.subject)}@${k.revision ?? 1}`;
}

/** A compact JSON rendering of a value for a table cell (strings as they are). */
export function compact(v: unknown, max = 80): string {
  if (v === null || v === undefined) return '-';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
