import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { extract, pack } from 'tar-stream';

/**
 * `tar` (an uncompressed tar archive, as PGlite's `dumpDataDir('none')` writes it) without the
 * entries `drop` names, read and written with tar-stream: the other entries keep their headers
 * (name, mode, type, times) and data, in order. Names are passed as stored (PGlite's start
 * with `/`).
 * @throws Error from tar-stream when the archive is truncated or a header is corrupt.
 */
export async function withoutEntries(tar: Uint8Array, drop: (name: string) => boolean): Promise<Buffer> {
  const input = extract();
  const output = pack();
  input.on('entry', (header, stream, next) => {
    if (drop(header.name)) {
      stream.on('end', next).resume();
      return;
    }
    stream.pipe(output.entry(header, next));
  });
  input.on('finish', () => output.finalize());
  const [filtered] = await Promise.all([
    buffer(output),
    pipeline(Readable.from([Buffer.from(tar.buffer, tar.byteOffset, tar.byteLength)]), input).catch(
      (error: unknown) => {
        output.destroy(error as Error);
        throw error;
      },
    ),
  ]);
  return filtered;
}
