import { keyIssues, type OperationKey } from '@operation-ledger/client';
import { UsageError } from '../exit-codes.js';

/** Key parts a template may set; tenant, source and action come from options unless set here. */
const PARTS = ['subject', 'revision', 'source', 'action'] as const;
type Part = (typeof PARTS)[number];

/** A parsed `--key` template: per key part, literal text and `${field}` references. */
export type KeyTemplate = Partial<Record<Part, readonly (string | { field: readonly string[] })[]>>;

/**
 * Parses `subject=${order_id}` — or several parts, comma-separated:
 * `subject=order:${order_id},revision=${rev}`. `${a.b}` reads a nested field.
 * @throws UsageError for an unknown part or a template without `subject`.
 */
export function parseKeyTemplate(text: string): KeyTemplate {
  const template: Record<string, (string | { field: string[] })[]> = {};
  for (const piece of text.split(/,(?=\s*[a-z]+=)/)) {
    const eq = piece.indexOf('=');
    const part = piece.slice(0, eq).trim();
    if (eq < 1 || !(PARTS as readonly string[]).includes(part))
      throw new UsageError(`--key: "${piece}" is not ${PARTS.map((p) => `${p}=…`).join(', ')}`);
    const tokens: (string | { field: string[] })[] = [];
    const re = /\$\{([^}]+)\}/g;
    const value = piece.slice(eq + 1);
    let at = 0;
    for (let m = re.exec(value); m; m = re.exec(value)) {
      if (m.index > at) tokens.push(value.slice(at, m.index));
      tokens.push({ field: m[1]!.trim().split('.') });
      at = m.index + m[0].length;
    }
    if (at < value.length) tokens.push(value.slice(at));
    template[part] = tokens;
  }
  if (!template.subject) throw new UsageError("--key must set subject, e.g. --key 'subject=${order_id}'");
  return template;
}

/** The top-level record fields a template reads (`${a.b}` reads field `a`). */
export function templateFields(template: KeyTemplate): string[] {
  const fields = new Set<string>();
  for (const tokens of Object.values(template))
    for (const t of tokens ?? []) if (typeof t !== 'string') fields.add(t.field[0]!);
  return [...fields];
}

function fieldOf(record: Record<string, unknown>, path: readonly string[]): unknown {
  let v: unknown = record;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

/**
 * The operation key of one record: the template filled in over `base` (tenant, source, action).
 * @returns the key, or the reason it cannot be built (a missing or non-scalar field, or a key
 *   part the ledger would refuse — the same messages as the ledger's).
 */
export function keyOf(
  template: KeyTemplate,
  base: { tenant: string; source: string; action: string },
  record: Record<string, unknown>,
): { key: Required<OperationKey> } | { error: string } {
  const parts: Record<string, string> = { ...base };
  for (const [part, tokens] of Object.entries(template)) {
    let out = '';
    for (const t of tokens ?? []) {
      if (typeof t === 'string') {
        out += t;
        continue;
      }
      const v = fieldOf(record, t.field);
      if (v === undefined || v === null || v === '')
        return { error: `field ${t.field.join('.')} is missing` };
      if (typeof v === 'object') return { error: `field ${t.field.join('.')} is not a string or number` };
      out += String(v);
    }
    parts[part] = out.normalize('NFC');
  }
  const revision = parts.revision === undefined ? 1 : Number(parts.revision);
  const key = {
    tenant: parts.tenant!,
    source: parts.source!,
    action: parts.action!,
    subject: parts.subject!,
    revision,
  };
  if (parts.revision !== undefined && !/^\d+$/.test(parts.revision))
    return { error: `key.revision "${parts.revision}" is not an integer` };
  const issues = keyIssues(key);
  if (issues.length > 0) return { error: issues.map((i) => `${i.field}: ${i.message}`).join('; ') };
  return { key };
}

/** The payload of one record: the whole record, or only `fields` (missing ones left out). */
export function payloadOf(record: Record<string, unknown>, fields: readonly string[] | undefined): unknown {
  if (!fields || fields.length === 0) return record;
  return Object.fromEntries(fields.filter((f) => f in record).map((f) => [f, record[f]]));
}
