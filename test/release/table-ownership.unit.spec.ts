// Table ownership (scripts/check-table-ownership.mjs, run by `npm run lint`): the read models'
// tables are named only under src/projections, the event tables only under src/event-store, so
// every other room reaches them through an import that dependency-cruiser checks.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
// @ts-expect-error -- a lint script in plain JavaScript, without declarations
import { violations } from '../../scripts/check-table-ownership.mjs';

interface Violation {
  file: string;
  line: number;
  owner: string;
}

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'table-ownership-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

it('names each line of another room that names a table it does not own', () => {
  const root = tree({
    'src/projections/core/q.ts': 'select * from ledger_rm_operations; select 1 from ledger_events',
    'src/event-store/sql/q.ts': 'select * from ledger_events',
    'src/jobs/sweeper.ts': 'const ok = 1;\nconst q = `select * from ledger_rm_operations`;',
    'src/backup/snapshot.ts': 'select max(global_position) from ledger_events_archive',
    'src/jobs/notes.md': 'ledger_rm_operations (not TypeScript: not checked)',
  });
  try {
    const found = (violations(root) as Violation[]).map(({ file, line, owner }) => ({ file, line, owner }));
    expect(found).toEqual(
      expect.arrayContaining([
        { file: 'src/projections/core/q.ts', line: 1, owner: 'src/event-store/' },
        { file: 'src/jobs/sweeper.ts', line: 2, owner: 'src/projections/' },
        { file: 'src/backup/snapshot.ts', line: 1, owner: 'src/event-store/' },
      ]),
    );
    expect(found).toHaveLength(3);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

it('finds no such line in src/', () => {
  expect(violations(join(import.meta.dirname, '..', '..'))).toEqual([]);
});
