import { withoutEntries } from '../../src/backup/tar-entries.js';

/** A minimal ustar entry: header (name, size in octal, magic) + data padded to 512-byte blocks. */
function entry(name: string, data: string): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'utf8');
  header.write(Buffer.byteLength(data).toString(8).padStart(11, '0'), 124, 'ascii');
  header.write('ustar\u000000', 257, 'binary');
  const body = Buffer.alloc(Math.ceil(Buffer.byteLength(data) / 512) * 512);
  body.write(data, 0, 'utf8');
  return Buffer.concat([header, body]);
}

const end = Buffer.alloc(1024);

/** The entries of `tar` as [name, data] pairs. */
function entries(tar: Uint8Array): [string, string][] {
  const out: [string, string][] = [];
  for (let at = 0; at + 512 <= tar.length;) {
    const header = Buffer.from(tar.subarray(at, at + 512));
    if (header.every((b) => b === 0)) break;
    const name = header.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const size = parseInt(header.toString('ascii', 124, 135), 8);
    out.push([name, Buffer.from(tar.subarray(at + 512, at + 512 + size)).toString('utf8')]);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

describe('withoutEntries', () => {
  const tar = Buffer.concat([
    entry('/PG_VERSION', '18\n'),
    entry('/ledger.pid', '4242'),
    entry('/base/5/16385', 'x'.repeat(1500)),
    entry('/first-admin-key', 'olk_secret\n'),
    end,
  ]);

  it('drops the named entries and keeps the others byte for byte, then the end marker', () => {
    const filtered = withoutEntries(tar, (name) => ['/ledger.pid', '/first-admin-key'].includes(name));
    expect(entries(filtered)).toEqual([
      ['/PG_VERSION', '18\n'],
      ['/base/5/16385', 'x'.repeat(1500)],
    ]);
    expect(filtered.length).toBe(512 * 2 + 512 * 4 + 1024);
    expect(Buffer.from(filtered.subarray(filtered.length - 1024)).every((b) => b === 0)).toBe(true);
  });

  it('keeps everything when nothing is dropped', () => {
    expect(Buffer.from(withoutEntries(tar, () => false))).toEqual(tar);
  });

  it('refuses a truncated archive', () => {
    expect(() => withoutEntries(tar.subarray(0, 512 * 5 + 100), () => false)).toThrow(RangeError);
  });
});
