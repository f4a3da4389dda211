import { swcBuild } from '../../support/swc-build.js';

/**
 * The sources compiled for spawned servers (`node_modules/.cache/ledger-observability-build-<pid>`, its
 * own directory, so it cannot race the projector tests' build); `src/main.js` there is the server
 * entry point.
 */
export function buildSources(): string {
  return swcBuild('ledger-observability-build');
}
