// Key templates, field comparison and reading uploads (CSV through csv-parse, NDJSON).
import { Readable } from 'node:stream';
import { fieldDifferences } from '../../src/reconciliation/job/compare-fields.js';
import { parseCompare } from '../../src/reconciliation/http/run-options.js';
import {
  compileKeyTemplate,
  fillKeyTemplate,
  type KeyTemplate,
} from '../../src/reconciliation/upload/key-template.js';
import { destinationRow } from '../../src/reconciliation/upload/destination-row.js';
import { readRecords } from '../../src/reconciliation/upload/read-records.js';
import { RowError } from '../../src/reconciliation/upload/upload-errors.js';

const collect = async (text: string, format: 'csv' | 'ndjson') => {
  const out = [];
  for await (const r of readRecords(Readable.from([Buffer.from(text)]), format, 1024 ** 2)) out.push(r);
  return out;
};

describe('key templates', () => {
  const t = (text: string) => compileKeyTemplate(text) as KeyTemplate;

  it('fills placeholders from columns and nested members, keeping literal braces', () => {
    expect(fillKeyTemplate(t('order:{id}'), { id: 812 }, 1)).toBe('order:812');
    expect(fillKeyTemplate(t('{a.b}-{{x}}'), { a: { b: 'q' } }, 1)).toBe('q-{x}');
  });

  it('names the missing column and its line', () => {
    expect(() => fillKeyTemplate(t('order:{id}'), { other: 1 }, 7)).toThrow(RowError);
    try {
      fillKeyTemplate(t('order:{id}'), {}, 7);
    } catch (err) {
      expect((err as RowError).toFieldError().field).toBe('rows[7].id');
    }
  });

  it('refuses unbalanced braces', () => {
    expect(compileKeyTemplate('order:{id')).toMatch(/unclosed/);
    expect(compileKeyTemplate('order:}')).toMatch(/unmatched/);
  });
});

describe('field comparison', () => {
  it('compares texts at JSON Pointers; an empty cell equals a missing value', () => {
    const compare = parseCompare('title,total=/amount/total,note') as { column: string; pointer: string }[];
    expect(compare).toEqual([
      { column: 'title', pointer: '/title' },
      { column: 'total', pointer: '/amount/total' },
      { column: 'note', pointer: '/note' },
    ]);
    const payload = { title: 'A', amount: { total: 120 } };
    expect(fieldDifferences(payload, { title: 'A', total: '120', note: null }, compare)).toEqual([]);
    expect(fieldDifferences(payload, { title: 'B', total: '120.00', note: 'x' }, compare)).toEqual([
      { field: 'title', ledger: 'A', destination: 'B' },
      { field: 'total', ledger: '120', destination: '120.00' },
      { field: 'note', ledger: null, destination: 'x' },
    ]);
  });
});

describe('compare parameter', () => {
  it('keeps RFC 6901 escapes and refuses a "~" not followed by 0 or 1', () => {
    expect(parseCompare('a=/x~1y/~0z')).toEqual([{ column: 'a', pointer: '/x~1y/~0z' }]);
    for (const bad of ['x=/~9', 'x=/a~', 'x=/~~0'])
      expect(parseCompare(bad)).toMatchObject({
        field: 'compare',
        message: expect.stringMatching(/~0 or ~1/),
      });
  });
});

describe('readRecords', () => {
  it('reads CSV with a BOM, quoted fields and record numbers after the header', async () => {
    const rows = await collect('\ufeffid,reference\r\n"A,1",x\r\n\r\nB,"y ""q"""\r\n', 'csv');
    expect(rows).toEqual([
      { line: 1, values: { id: 'A,1', reference: 'x' } },
      { line: 2, values: { id: 'B', reference: 'y "q"' } },
    ]);
  });

  it('reads NDJSON objects by line number, skipping empty lines', async () => {
    const rows = await collect('{"id":"A"}\n\n{"id":2}\n', 'ndjson');
    expect(rows).toEqual([
      { line: 1, values: { id: 'A' } },
      { line: 3, values: { id: 2 } },
    ]);
  });

  it('refuses a line that is not JSON, naming it', async () => {
    await expect(collect('{"id":"A"}\n{oops\n', 'ndjson')).rejects.toMatchObject({ line: 2 });
  });

  it('refuses malformed CSV of every kind as a row error (an opening quote mid-field was a 500)', async () => {
    for (const text of [' "', 'id,reference\n"A,B\n', 'id,reference\nA,"B"x\n', 'id\nA,B\n']) {
      await expect(collect(text, 'csv')).rejects.toBeInstanceOf(RowError);
    }
  });

  it('refuses a CSV whose header lacks a column the run names (it read as empty: every row "missing")', async () => {
    const [record] = await collect('id,ref\nINV-1,order:1\n', 'csv');
    const layout = { idField: 'id', refField: 'memo', refPrefix: null, compare: [] };
    expect(() => destinationRow(record!, layout, 1000, 'csv')).toThrow(RowError);
    expect(() => destinationRow(record!, { ...layout, refField: 'ref' }, 1000, 'csv')).not.toThrow();
    const compared = { ...layout, refField: 'ref', compare: [{ column: 'amount', pointer: '/total' }] };
    expect(() => destinationRow(record!, compared, 1000, 'csv')).toThrow(/no column "amount"/);
    // NDJSON members may be absent per record: no reference is an orphan, not a refusal
    expect(() => destinationRow({ line: 1, values: { id: 'INV-2' } }, layout, 1000, 'ndjson')).not.toThrow();
  });
});

describe('an upload that failed before it is read', () => {
  // The body of a request whose gzip is broken fails while the run row is being written; on
  // PostgreSQL that write takes long enough for the failure to come first. Reading it afterwards
  // must fail with that error, not wait for an end that never comes (the request hung).
  for (const format of ['csv', 'ndjson'] as const) {
    it(`${format}: the reader throws the stream's error`, async () => {
      const body = new Readable({ read() {} });
      body.on('error', () => undefined);
      body.destroy(Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR' }));
      await new Promise((r) => setImmediate(r));
      const first = readRecords(body, format, 1024).next();
      const hung = new Promise((r) => setTimeout(() => r('still waiting after 2 s'), 2_000).unref());
      await expect(Promise.race([first, hung])).rejects.toMatchObject({ code: 'Z_DATA_ERROR' });
    });
  }
});
