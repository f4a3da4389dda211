// The record size cap of uploads: a record over it stops the reading at that record, naming its
// line, without buffering the rest of it (a one-line gzip bomb must not fill the memory).
import { Readable } from 'node:stream';
import { readRecords } from '../../src/reconciliation/upload/read-records.js';
import { RecordTooLargeError } from '../../src/reconciliation/upload/upload-errors.js';

const KIB = 1024;

/** `head`, then `blocks` chunks of 1 KiB of `a` (no newline); counts the chunks pulled. */
function oneHugeLine(head: string, blocks: number) {
  const source = { pulled: 0 };
  const block = Buffer.alloc(KIB, 'a');
  async function* chunks() {
    yield Buffer.from(head);
    for (let i = 0; i < blocks; i++) {
      source.pulled++;
      yield block;
    }
  }
  return { stream: Readable.from(chunks(), { objectMode: false, highWaterMark: KIB }), source };
}

const collect = async (stream: Readable, format: 'csv' | 'ndjson', maxRecordBytes: number) => {
  const out = [];
  for await (const r of readRecords(stream, format, maxRecordBytes)) out.push(r);
  return out;
};

describe('record size cap', () => {
  it('keeps reading NDJSON lines up to the cap, split across chunks, with CRLF', async () => {
    const text = '{"id":"A"}\r\n{"id":"' + 'b'.repeat(50) + '"}\n\n{"id":3}';
    const chunks = [...text].map((c) => Buffer.from(c)); // every byte its own chunk
    const rows = await collect(Readable.from(chunks), 'ndjson', 64);
    expect(rows).toEqual([
      { line: 1, values: { id: 'A' } },
      { line: 2, values: { id: 'b'.repeat(50) } },
      { line: 4, values: { id: 3 } },
    ]);
  });

  it('decodes multi-byte characters split between chunks', async () => {
    const bytes = Buffer.from('{"id":"é€"}\n');
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    expect(await collect(Readable.from(chunks), 'ndjson', 64)).toEqual([{ line: 1, values: { id: 'é€' } }]);
  });

  it('refuses an NDJSON line over the cap, naming it, and stops reading the stream', async () => {
    const { stream, source } = oneHugeLine('{"id":"A"}\n{"id":"', 10_000);
    await expect(collect(stream, 'ndjson', 4 * KIB)).rejects.toMatchObject({
      constructor: RecordTooLargeError,
      line: 2,
    });
    expect(source.pulled).toBeLessThan(64); // not the 10 000 KiB of the line
    expect(stream.destroyed).toBe(true);
  });

  it('refuses a CSV record over the cap, naming it, and stops reading the stream', async () => {
    const { stream, source } = oneHugeLine('id,reference\nA,1\n', 10_000);
    await expect(collect(stream, 'csv', 4 * KIB)).rejects.toMatchObject({
      constructor: RecordTooLargeError,
      line: 2,
    });
    expect(source.pulled).toBeLessThan(64);
    expect(stream.destroyed).toBe(true);
  });

  it('refuses a quoted CSV field over the cap as well', async () => {
    const { stream } = oneHugeLine('id,reference\n"', 10_000);
    await expect(collect(stream, 'csv', 4 * KIB)).rejects.toBeInstanceOf(RecordTooLargeError);
  });
});
