// Streaming an upload into the spill tables: the next batch is read while the previous one is
// being written (a million-row upload spent half its time waiting for each insert), with at most
// one write in flight, in order, and every write settled before ingest answers.
import { ingest } from '../../src/reconciliation/upload/ingest.js';
import type { UploadRecord } from '../../src/reconciliation/upload/read-records.js';
import { RowError } from '../../src/reconciliation/upload/upload-errors.js';
import { uploadRefusalProblem } from '../../src/reconciliation/http/reconciliation-http-answer.js';
import type { InvalidUpload } from '../../src/reconciliation/upload-refusal.js';
import { SPILL_BATCH } from '../../src/reconciliation/sql/spill-rows.js';

const LIMITS = { maxBytes: 1e12, maxRows: 1e9, maxRecordBytes: 1e6, maxCellChars: 1024 };

/** `count` records; `onRead(line)` is called as each one is handed out. */
async function* records(
  count: number,
  onRead: (line: number) => void = () => {},
): AsyncGenerator<UploadRecord> {
  for (let line = 1; line <= count; line++) {
    onRead(line);
    yield { line, values: { id: String(line) } };
  }
}

const toRow = (r: UploadRecord) => {
  if (r.values['id'] === 'bad') throw new RowError(r.line, 'id', 'bad id');
  return r.line;
};

it('reads the next batch while the previous one is written, one write at a time, in order', async () => {
  let read = 0;
  let releaseFirst!: (by: string) => void;
  const firstReleased = new Promise<string>((resolve) => (releaseFirst = resolve));
  const writes: { first: number; size: number }[] = [];
  let inFlight = 0;
  let most = 0;
  const count = await ingest(
    records(2 * SPILL_BATCH + 5, (line) => {
      read = line;
      if (line === SPILL_BATCH + 1) releaseFirst('the reader');
    }),
    toRow,
    async (batch) => {
      most = Math.max(most, ++inFlight);
      writes.push({ first: batch[0]!, size: batch.length });
      if (writes.length === 1) {
        // A sequential ingest would never read on while this write waits: give up after 2 s.
        const by = await Promise.race([
          firstReleased,
          new Promise<string>((r) => setTimeout(() => r('the 2 s guard'), 2000)),
        ]);
        expect(by).toBe('the reader');
      }
      inFlight--;
    },
    LIMITS,
    'export',
  );
  expect(count).toEqual({ kind: 'ingested', rows: 2 * SPILL_BATCH + 5 });
  expect(read).toBe(2 * SPILL_BATCH + 5);
  expect(writes).toEqual([
    { first: 1, size: SPILL_BATCH },
    { first: SPILL_BATCH + 1, size: SPILL_BATCH },
    { first: 2 * SPILL_BATCH + 1, size: 5 },
  ]);
  expect(most).toBe(1);
});

it('fails with the failed write and starts no write after it', async () => {
  const writes: number[] = [];
  const failure = new Error('store full');
  await expect(
    ingest(
      records(3 * SPILL_BATCH),
      toRow,
      async (batch) => {
        writes.push(batch[0]!);
        if (writes.length === 1) throw failure;
      },
      LIMITS,
      'export',
    ),
  ).rejects.toBe(failure);
  expect(writes).toEqual([1]);
});

it('answers a bad row only after the write in flight has landed (the run is then removed whole)', async () => {
  let landed = 0;
  async function* withBadRow(): AsyncGenerator<UploadRecord> {
    yield* records(SPILL_BATCH);
    yield { line: SPILL_BATCH + 1, values: { id: 'bad' } };
  }
  const refused = await ingest(
    withBadRow(),
    toRow,
    async () => {
      await new Promise((r) => setTimeout(r, 50));
      landed++;
    },
    LIMITS,
    'export',
  );
  expect(refused.kind).toBe('invalid-upload');
  expect(uploadRefusalProblem(refused as InvalidUpload).problem.status).toBe(422);
  expect(landed).toBe(1);
});
