import type { ReconciliationOptions, SourceIntentOptions } from '@operation-ledger/client';
import { parseKeyTemplate, type KeyTemplate } from '../backfill/key-template.js';
import type { Opts } from '../command-kit.js';
import { UsageError } from '../exit-codes.js';

/** Options of the upload form that make no sense without `--destination`. */
export const UPLOAD_ONLY = [
  'source',
  'match',
  'refField',
  'idField',
  'refPrefix',
  'compare',
  'apply',
  'sourceKey',
  'sourceIdField',
  'format',
  'sourceFormat',
  'gzip',
] as const;

/** `--ref-field` → `refField`, for messages. */
export const flagOf = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * The query of the create route from the command's options: `--compare` may be repeated (joined
 * with commas, as the ledger reads them); `--apply none` is the ledger's default.
 */
export function reconciliationOptions(o: Opts): ReconciliationOptions {
  const compare = (o.compare as string[] | undefined)?.join(',');
  return {
    action: o.action,
    from: o.from,
    to: o.to,
    match: o.match,
    apply: o.apply,
    idField: o.idField,
    refField: o.refField,
    refPrefix: o.refPrefix,
    compare: compare || undefined,
    awaitSource: o.source ? true : undefined,
  };
}

/** A backfill `--key` part (`order:${id}`) in the ledger's template syntax (`order:{id}`, `{{` for `{`). */
function ledgerTemplate(tokens: NonNullable<KeyTemplate['subject']>): string {
  return tokens
    .map((t) => (typeof t === 'string' ? t.replace(/[{}]/g, (c) => c + c) : `{${t.field.join('.')}}`))
    .join('');
}

/**
 * The query of the source upload: `--source-id-field col` (rows carry operation ids), or
 * `--source-key` in the backfill's syntax (`subject=order:${order},source=shop`) turned into the
 * ledger's key templates; neither → the ledger's defaults (columns `source`, `subject`; the run's
 * action; revision 1).
 * @throws UsageError for both at once, or a malformed `--source-key`.
 */
export function sourceIntentOptions(o: Opts): SourceIntentOptions {
  if (o.sourceIdField && o.sourceKey)
    throw new UsageError('--source-id-field and --source-key exclude each other');
  if (o.sourceIdField) return { operationIdField: o.sourceIdField };
  if (!o.sourceKey) return {};
  let template: KeyTemplate;
  try {
    template = parseKeyTemplate(o.sourceKey);
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/--key\b/g, '--source-key'));
  }
  const part = (p: keyof KeyTemplate) => (template[p] ? ledgerTemplate(template[p]) : undefined);
  return {
    subjectTemplate: part('subject'),
    sourceTemplate: part('source'),
    actionTemplate: part('action'),
    revisionTemplate: part('revision'),
  };
}
