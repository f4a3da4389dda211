// Table ownership (docs/decisions.md "Rooms own their tables"): each room names only its own tables.
// The read models' tables and views (`ledger_rm_…`) and their checkpoints (`ledger_projections`)
// belong to src/projections, the event tables (`ledger_events…`, `ledger_streams`) to
// src/event-store, the destination reconciliation's (`ledger_reconciliations`, `ledger_recon_…`)
// to src/reconciliation, `ledger_api_keys` to src/auth (docs/architecture.md "Who owns which table"). Other rooms reach them through what those rooms export —
// functions and named relations — so the coupling shows in the import graph that
// dependency-cruiser checks. A table name in another room's string or comment is a coupling no
// import shows; this check (run by `npm run lint`) fails on it and names the file and line.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Table-name prefix → the only folder under src/ allowed to write it. */
export const OWNERS = [
  { pattern: /\bledger_rm_/, owner: 'src/projections/' },
  { pattern: /\bledger_projections\b/, owner: 'src/projections/' },
  { pattern: /\bledger_events/, owner: 'src/event-store/' },
  { pattern: /\bledger_streams\b/, owner: 'src/event-store/' },
  { pattern: /\bledger_recon(_|ciliations\b)/, owner: 'src/reconciliation/' },
  { pattern: /\bledger_api_keys\b/, owner: 'src/auth/' },
];

/** Every `.ts` file under `dir`, as `/`-separated paths relative to `root`. */
function tsFiles(root, dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return tsFiles(root, path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The lines of `src/` that name a table outside its owner's folder, as
 * `{ file, line, owner, text }`.
 */
export function violations(root) {
  const found = [];
  for (const file of tsFiles(root, 'src')) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    for (const { pattern, owner } of OWNERS) {
      if (file.startsWith(owner)) continue;
      lines.forEach((text, i) => {
        if (pattern.test(text)) found.push({ file, line: i + 1, owner, text: text.trim() });
      });
    }
  }
  return found;
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  const root = join(fileURLToPath(import.meta.url), '..', '..');
  const found = violations(root);
  for (const v of found) {
    console.error(
      `${v.file.split('/').join(sep)}:${v.line}: table of ${v.owner} named outside it: ${v.text}`,
    );
  }
  if (found.length) {
    console.error(
      `\n${found.length} line(s) name another room's table; import what that room exports instead.`,
    );
    process.exit(1);
  }
  console.log('table ownership: every table name is in its own room');
}
