import { swcBuild } from '../../support/swc-build.js';

/**
 * The sources compiled for spawned servers (`node_modules/.cache/ledger-swc-build-<key>`, shared
 * with every file that compiles the same sources, see `swcBuild`); `src/main.js` there is the
 * server entry point.
 */
export function buildSources(): string {
  return swcBuild();
}
