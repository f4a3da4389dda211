import { RecordTooLargeError } from './upload-errors.js';

/** One line of a byte stream: its 1-based number and its text (UTF-8, without the line break). */
export interface NumberedLine {
  readonly line: number;
  readonly text: string;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * The lines of a byte stream, split at LF (a CR before it is dropped, so CRLF works too), each
 * decoded as UTF-8 once whole (a character split between chunks is kept intact). At most
 * `maxLineBytes` of the current line are held: a longer line ends the iteration with
 * {@link RecordTooLargeError} as soon as the cap is passed, without reading the rest of it (a
 * one-line gzip bomb costs the cap, not its size). A last line without a break is yielded too.
 * @throws RecordTooLargeError naming the line; the stream's own error as it comes.
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer | string>,
  maxLineBytes: number,
): AsyncGenerator<NumberedLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let line = 0;
  const take = (): NumberedLine => {
    let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, -1);
    parts = [];
    size = 0;
    return { line: ++line, text: bytes.toString('utf8') };
  };
  for await (const chunk of chunks) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start <= buf.length) {
      const lf = buf.indexOf(LF, start);
      const end = lf < 0 ? buf.length : lf;
      size += end - start;
      // the cap counts the line's bytes without its LF (a CR before it counts)
      if (size > maxLineBytes) throw new RecordTooLargeError(line + 1, maxLineBytes);
      if (end > start) parts.push(buf.subarray(start, end));
      if (lf < 0) break;
      yield take();
      start = lf + 1;
    }
  }
  if (size > 0) yield take();
}
