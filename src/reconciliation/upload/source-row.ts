import { keyPartIssue, operationIdFor, MAX_REVISION, type OperationKey } from '../../ledger/index.js';
import { cellText } from './cell.js';
import { fillKeyTemplate, type KeyTemplate } from './key-template.js';
import type { UploadRecord } from './read-records.js';
import { RowError } from './upload-errors.js';

/** How source intents become operation keys (the source upload's options). */
export interface SourceLayout {
  readonly tenant: string;
  /** When set, rows give the operation id in this column and no key is built. */
  readonly operationIdField: string | null;
  readonly source: KeyTemplate;
  readonly action: KeyTemplate;
  readonly subject: KeyTemplate;
  /** Null: revision 1. */
  readonly revision: KeyTemplate | null;
}

/** One source intent as spilled to SQL: its operation id and key (null when given by id). */
export interface SourceRow {
  readonly line: number;
  readonly operationId: string;
  readonly key: OperationKey | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * One source intent: by operation id, or a key filled from the templates under the run's tenant
 * and validated like a claim's key (docs/guide.md "Operation identity": NFC, no control characters,
 * at most 256 bytes; nothing is normalised silently). The operation id is the key's UUID v5.
 * @throws RowError naming the line and column (or key part).
 */
export function sourceRow(record: UploadRecord, layout: SourceLayout, maxChars: number): SourceRow {
  const { line, values } = record;
  if (layout.operationIdField) {
    const id = cellText(
      values[layout.operationIdField],
      line,
      layout.operationIdField,
      maxChars,
    )?.toLowerCase();
    if (!id || !UUID.test(id))
      throw new RowError(line, layout.operationIdField, 'must be an operation id (UUID)');
    return { line, operationId: id, key: null };
  }
  const part = (name: 'source' | 'action' | 'subject', template: KeyTemplate) => {
    const value = fillKeyTemplate(template, values, line);
    const issue = keyPartIssue(name, value);
    if (issue) throw new RowError(line, name, issue.message);
    return value;
  };
  let revision = 1;
  if (layout.revision) {
    const text = fillKeyTemplate(layout.revision, values, line);
    revision = Number(text);
    if (!/^\d+$/.test(text) || revision < 1 || revision > MAX_REVISION) {
      throw new RowError(line, 'revision', `must be an integer from 1 to ${MAX_REVISION}`);
    }
  }
  const key: OperationKey = {
    tenant: layout.tenant,
    source: part('source', layout.source),
    action: part('action', layout.action),
    subject: part('subject', layout.subject),
    revision,
  };
  return { line, operationId: operationIdFor(key), key };
}
