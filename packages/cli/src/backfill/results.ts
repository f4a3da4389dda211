import { createWriteStream, type WriteStream } from 'node:fs';
import { access, rename } from 'node:fs/promises';
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
 * Keeps the results file of an earlier run: when `path` exists it is renamed to the first free
 * `<name>.<n><ext>` (`orders.results.1.ndjson`, `.2`, …), so a new run never overwrites it.
 * @returns the name the earlier file now has, or null when there was none.
 */
export async function keepEarlierResults(path: string): Promise<string | null> {
  if (!(await exists(path))) return null;
  const dot = path.lastIndexOf('.');
  const [name, ext] = dot > path.lastIndexOf('/') ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
  for (let n = 1; ; n++) {
    const kept = `${name}.${n}${ext}`;
    if (await exists(kept)) continue;
    await rename(path, kept);
    return kept;
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The results file (NDJSON, or CSV for `.csv`), written as it goes; created new, an earlier
 * run's file moved aside first ({@link keepEarlierResults}).
 */
export class ResultsFile {
  private readonly out: WriteStream;
  private readonly csv: boolean;

  constructor(readonly path: string) {
    this.out = createWriteStream(path, { flags: 'wx' });
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
