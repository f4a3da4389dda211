import type { SupersedeRevision } from './commands.js';
import { operationIdFor, type OperationKey } from './operation-key.js';

/**
 * Amendments (docs/domain.md "Approvals, replays and amendments"): the commands that mark every older
 * revision 1..r-1 of `key`'s subject superseded by revision r = `key.revision`, at `now` (epoch
 * ms). Every older revision, not only the one named in `supersedes`: an older revision arriving
 * later — in any order — is then refused `superseded`, even when r arrives before r-1.
 */
export function supersessionCommands(key: OperationKey, now: number): SupersedeRevision[] {
  const byOperationId = operationIdFor(key);
  return Array.from({ length: key.revision - 1 }, (_, i) => {
    const older = { ...key, revision: i + 1 };
    return {
      type: 'SupersedeRevision',
      now,
      key: older,
      operationId: operationIdFor(older),
      byRevision: key.revision,
      byOperationId,
    };
  });
}
