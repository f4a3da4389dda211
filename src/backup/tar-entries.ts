/** Size of a tar block (POSIX ustar: a 512-byte header, then the data padded to blocks). */
const BLOCK = 512;

function text(bytes: Uint8Array, start: number, length: number): string {
  const field = bytes.subarray(start, start + length);
  const end = field.indexOf(0);
  return Buffer.from(end === -1 ? field : field.subarray(0, end)).toString('utf8');
}

/** The path of the entry whose ustar header starts at `at` (prefix + name). */
function entryName(tar: Uint8Array, at: number): string {
  const name = text(tar, at, 100);
  const ustar = text(tar, at + 257, 5) === 'ustar';
  const prefix = ustar ? text(tar, at + 345, 155) : '';
  return prefix ? `${prefix}/${name}` : name;
}

/**
 * `tar` (an uncompressed POSIX ustar archive, as PGlite's `dumpDataDir('none')` writes it) without
 * the entries `drop` names; the other entries are copied byte for byte, then the end-of-archive
 * marker (two zero blocks). Names are passed as stored (PGlite's start with `/`).
 * @throws RangeError when the archive is truncated or a header's size field is not octal.
 */
export function withoutEntries(tar: Uint8Array, drop: (name: string) => boolean): Uint8Array {
  const kept: Uint8Array[] = [];
  let at = 0;
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break; // end-of-archive marker
    const sizeField = text(tar, at + 124, 12).trim();
    if (!/^[0-7]*$/.test(sizeField)) throw new RangeError(`tar entry at byte ${at}: bad size "${sizeField}"`);
    const size = sizeField ? parseInt(sizeField, 8) : 0;
    const length = BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (at + length > tar.length) throw new RangeError(`tar entry at byte ${at} is truncated`);
    if (!drop(entryName(tar, at))) kept.push(tar.subarray(at, at + length));
    at += length;
  }
  kept.push(new Uint8Array(2 * BLOCK));
  return Buffer.concat(kept);
}
