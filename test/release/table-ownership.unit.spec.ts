// Table ownership (scripts/check-table-ownership.mjs, run by `npm run lint`): each table is named
// only in the room that owns it (the read models' tables and checkpoints under src/projections, the
// event tables under src/event-store, …), so every other room reaches it through an import that
// dependency-cruiser checks.
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

it('knows the owner of the stream, checkpoint, reconciliation and API-key tables too', () => {
  const root = tree({
    'src/event-store/sql/q.ts': 'select * from ledger_streams',
    'src/projections/core/q.ts': 'select position from ledger_projections',
    'src/reconciliation/sql/q.ts': 'select * from ledger_reconciliations join ledger_recon_items using (id)',
    'src/auth/sql/q.ts': 'select * from ledger_api_keys',
    'src/jobs/a.ts': 'select 1 from ledger_streams',
    'src/health/b.ts': 'select 1 from ledger_projections',
    'src/projections/c.ts': 'select 1 from ledger_recon_items',
    'src/jobs/d.ts': 'select 1 from ledger_reconciliations',
    'src/admin-cli/e.ts': 'delete from ledger_api_keys',
    'src/observability/f.ts': "gauge('ledger_projection_lag_seconds')",
  });
  try {
    const found = (violations(root) as Violation[])
      .map(({ file, owner }) => ({ file, owner }))
      .sort((a, b) => a.file.localeCompare(b.file));
    expect(found).toEqual([
      { file: 'src/admin-cli/e.ts', owner: 'src/auth/' },
      { file: 'src/health/b.ts', owner: 'src/projections/' },
      { file: 'src/jobs/a.ts', owner: 'src/event-store/' },
      { file: 'src/jobs/d.ts', owner: 'src/reconciliation/' },
      { file: 'src/projections/c.ts', owner: 'src/reconciliation/' },
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

it('finds no such line in src/', () => {
  expect(violations(join(import.meta.dirname, '..', '..'))).toEqual([]);
});
