import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { stringify } from 'csv-stringify/sync';

/** How one input line ended. */
export type LineStatus = 'acquired' | 'replayed' | 'conflict' | 'in_progress' | 'refused' | 'invalid';

/** One line of the results file. */
export interface LineResult {
  readonly line: number;
  /** The canonical key (`tenant/source/action/subject@revision`, percent-encoded), null when none could be built. */
  readonly key: string | null;
  readonly status: LineStatus;
  readonly operationId: string | null;
  /** The HTTP status the ledger answered for the item (201, 200, 409, 422, …), null for invalid lines. */
  readonly answer: number | null;
  /** The problem code of a refusal (`payload-conflict`, `in-progress`, `invalid-key`, …). */
  readonly code: string | null;
  /** The state the operation is in after this line. */
  readonly state: string | null;
  readonly detail: string | null;
}

const COLUMNS: readonly (keyof LineResult)[] = [
  'line',
  'key',
  'status',
  'operationId',
  'answer',
  'code',
  'state',
  'detail',
];

/**
 * The results file, written as it goes (one write per chunk, honouring back-pressure): NDJSON,
 * or CSV with a header line when the path ends in `.csv`. It is rewritten by every run.
 */
export class ResultsFile {
  private readonly out: WriteStream;
  private readonly csv: boolean;

  constructor(readonly path: string) {
    this.out = createWriteStream(path, { flags: 'w' });
    this.csv = /\.csv$/i.test(path);
    if (this.csv) this.out.write(stringify([COLUMNS as string[]]));
  }

  /** Appends the results of one chunk. */
  async write(results: readonly LineResult[]): Promise<void> {
    if (results.length === 0) return;
    const text = this.csv
      ? stringify(results.map((r) => COLUMNS.map((c) => r[c] ?? '')))
      : results.map((r) => `${JSON.stringify(r)}\n`).join('');
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      this.out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
  }
}
