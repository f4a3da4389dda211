import type { FieldError } from '../../common/validation.js';
import { compileKeyTemplate, type KeyTemplate } from '../upload/key-template.js';
import type { ComparedField } from '../upload/destination-row.js';
import type { SourceLayout } from '../upload/source-row.js';
import type { CreateReconciliationQueryDto, SourceUploadQueryDto } from './reconciliation-queries.dto.js';
import type { RunOptions } from '../run.js';
import type { InvalidQuery } from '../upload-refusal.js';

/** Most compared columns of one run. */
export const MAX_COMPARED_FIELDS = 32;

/**
 * `compare=title,total=/amount/total` → columns and JSON Pointers (RFC 6901; `col` alone means
 * `/col`; `~` must begin the escapes `~0` or `~1`). @returns the fields, or the problem naming
 * `compare`.
 */
export function parseCompare(text: string | undefined): ComparedField[] | FieldError {
  if (text === undefined) return [];
  const fields: ComparedField[] = [];
  for (const raw of text.split(',')) {
    const item = raw.trim();
    const eq = item.indexOf('=');
    const column = (eq < 0 ? item : item.slice(0, eq)).trim();
    const pointer =
      eq < 0 ? `/${column.replace(/~/g, '~0').replace(/\//g, '~1')}` : item.slice(eq + 1).trim();
    if (column === '') return { field: 'compare', message: 'each entry needs a column name' };
    if (pointer !== '' && !pointer.startsWith('/')) {
      return { field: 'compare', message: `${column}: a JSON Pointer starts with "/" (RFC 6901)` };
    }
    if (/~(?![01])/.test(pointer)) {
      return {
        field: 'compare',
        message: `${column}: in a JSON Pointer "~" is written ~0 or ~1 (RFC 6901 §3), got ${pointer}`,
      };
    }
    if (fields.some((f) => f.column === column))
      return { field: 'compare', message: `${column} is listed twice` };
    fields.push({ column, pointer });
  }
  if (fields.length > MAX_COMPARED_FIELDS) {
    return { field: 'compare', message: `at most ${MAX_COMPARED_FIELDS} columns` };
  }
  return fields;
}

/**
 * The options of a new run from its query, or the parameters at fault (`to`, `compare`, `refField`).
 */
export function runOptionsOf(q: CreateReconciliationQueryDto): RunOptions | InvalidQuery {
  const errors: FieldError[] = [];
  if (q.from && q.to && Date.parse(q.from) >= Date.parse(q.to)) {
    errors.push({ field: 'to', message: 'to must be after from' });
  }
  const compare = parseCompare(q.compare);
  if (!Array.isArray(compare)) errors.push(compare);
  const idField = q.idField ?? 'id';
  const refField = q.refField ?? 'reference';
  if (idField === refField) errors.push({ field: 'refField', message: 'refField and idField must differ' });
  if (errors.length > 0) return { kind: 'invalid-query', errors };
  return {
    idField,
    refField,
    refPrefix: q.refPrefix ?? null,
    compare: compare as ComparedField[],
    awaitSource: q.awaitSource === 'true',
  };
}

/**
 * How the source upload's rows become keys, from its query; or the template parameters at fault.
 */
export function sourceLayoutOf(
  q: SourceUploadQueryDto,
  tenant: string,
  runAction: string | null,
): SourceLayout | InvalidQuery {
  const errors: FieldError[] = [];
  const compile = (field: string, text: string): KeyTemplate => {
    const t = compileKeyTemplate(text);
    if (typeof t === 'string') errors.push({ field, message: t });
    return typeof t === 'string' ? { text, parts: [] } : t;
  };
  const literal = (text: string) => text.replace(/[{}]/g, (c) => c + c);
  const layout: SourceLayout = {
    tenant,
    operationIdField: q.operationIdField ?? null,
    source: compile('sourceTemplate', q.sourceTemplate ?? '{source}'),
    action: compile('actionTemplate', q.actionTemplate ?? (runAction ? literal(runAction) : '{action}')),
    subject: compile('subjectTemplate', q.subjectTemplate ?? '{subject}'),
    revision: q.revisionTemplate ? compile('revisionTemplate', q.revisionTemplate) : null,
  };
  if (errors.length > 0) return { kind: 'invalid-query', errors };
  return layout;
}
