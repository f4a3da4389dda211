import { buffer, text } from 'node:stream/consumers';
import { Readable } from 'node:stream';
import { extract, pack } from 'tar-stream';
import { withoutEntries } from '../../src/backup/tar-entries.js';

/** A tar of `files` ([name, data]) with a directory entry first, as PGlite's dumps hold them. */
async function tarOf(files: [string, string][]): Promise<Buffer> {
  const out = pack();
  out.entry({ name: '/base', type: 'directory', mode: 0o700 });
  for (const [name, data] of files) out.entry({ name, mode: 0o600 }, data);
  out.finalize();
  return buffer(out);
}

/** The entries of `tar` as [name, type, data]. */
async function entries(tar: Uint8Array): Promise<[string, string, string][]> {
  const out: [string, string, string][] = [];
  const reader = extract();
  const done = new Promise<void>((resolve, reject) => reader.on('finish', resolve).on('error', reject));
  reader.on('entry', (header, stream, next) => {
    void text(stream).then((data) => {
      out.push([header.name, header.type ?? 'file', data]);
      next();
    });
  });
  Readable.from([Buffer.from(tar)]).pipe(reader);
  await done;
  return out;
}

describe('withoutEntries', () => {
  const files: [string, string][] = [
    ['/PG_VERSION', '18\n'],
    ['/ledger.pid', '4242'],
    ['/base/5/16385', 'x'.repeat(1500)],
    ['/first-admin-key', 'olk_secret\n'],
  ];

  it('drops the named entries and keeps the others, with their type and data, in order', async () => {
    const filtered = await withoutEntries(await tarOf(files), (name) =>
      ['/ledger.pid', '/first-admin-key'].includes(name),
    );
    expect(await entries(filtered)).toEqual([
      ['/base', 'directory', ''],
      ['/PG_VERSION', 'file', '18\n'],
      ['/base/5/16385', 'file', 'x'.repeat(1500)],
    ]);
  });

  it('keeps everything when nothing is dropped', async () => {
    const tar = await tarOf(files);
    expect(await entries(await withoutEntries(tar, () => false))).toEqual(await entries(tar));
  });

  it('refuses a truncated archive', async () => {
    const tar = await tarOf(files);
    await expect(withoutEntries(tar.subarray(0, 512 * 5 + 100), () => false)).rejects.toThrow();
  });
});
