import { existsSync } from 'node:fs';
import { initdbTemplateDir } from '../event-store/postgres/initdb-template.js';
import { writeInitdbTemplate } from '../event-store/postgres/write-initdb-template.js';
import { installLedgerSchemas } from '../ledger-schemas.js';
import { templateModes } from './template-modes.js';

/**
 * `npm run build:initdb-template` (part of `npm run build`, so of `npm ci` and the Docker image):
 * writes the fresh cluster, every ledger schema installed, that a new embedded data directory is
 * copied from (see initdb-template.ts) — unless the build already holds one for this PGlite
 * version — writable by its owner only (an existing template's modes are tightened too), which every new
 * data directory inherits. Exit status 0, or 1 with the error.
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
