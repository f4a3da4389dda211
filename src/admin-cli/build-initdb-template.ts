import { existsSync } from 'node:fs';
import { initdbTemplateDir } from '../event-store/postgres/initdb-template.js';
import { writeInitdbTemplate } from '../event-store/postgres/write-initdb-template.js';
import { installLedgerSchemas } from '../ledger-schemas.js';
import { templateModes } from './template-modes.js';

/**
 * `npm run build:initdb-template`: writes the fresh cluster a new embedded data directory is
 * copied from (docs/decisions.md "A new embedded data directory starts as a copy of a fresh
 * cluster the build ships"), writable by its owner only. Exit status 0, or 1 with the error.
 */
async function main(): Promise<void> {
  const dir = initdbTemplateDir();
  if (!existsSync(dir))
    console.log(`wrote ${await writeInitdbTemplate(dir, { prepare: installLedgerSchemas })}`);
  await templateModes(dir);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
