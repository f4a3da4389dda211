import { decideSupersede, operationIdFor, type OperationKey } from '../../ledger/index.js';
import type { RequestContext } from '../core/event-metadata.js';
import type { OperationStreams } from '../core/operation-stream.js';

/** Older revisions marked at once (each is one read and at most one append). */
const PARALLELISM = 16;

/**
 * Amendments (issue "Recovery and operator workflows"): before revision r of a subject is
 * claimed, every older revision 1..r-1 gets `OperationSuperseded` (appended with the expected
 * revision read, through the decider loop; a no-op where already superseded by r or later). A
 * stream that does not exist yet is created with it, so an older revision arriving later —
 * in the same batch or another, in any order — is refused `superseded`. Marking every older
 * revision, not only the one named, keeps that true even when r arrives before r-1.
 * Done before the claim: if the process dies in between, the claim's retry marks them again.
 * @throws EventStoreUnavailableError; ContentionError.
 */
export async function supersedeOlderRevisions(
  streams: OperationStreams,
  key: OperationKey,
  ctx: RequestContext,
  now: () => number,
): Promise<void> {
  const byOperationId = operationIdFor(key);
  const older = Array.from({ length: key.revision - 1 }, (_, i) => i + 1);
  const mark = async (revision: number) => {
    const oldKey = { ...key, revision };
    await streams.execute(
      oldKey,
      (state) =>
        decideSupersede(
          {
            type: 'SupersedeRevision',
            now: now(),
            key: oldKey,
            operationId: operationIdFor(oldKey),
            byRevision: key.revision,
            byOperationId,
          },
          state,
        ),
      ctx,
    );
  };
  for (let i = 0; i < older.length; i += PARALLELISM) {
    await Promise.all(older.slice(i, i + PARALLELISM).map(mark));
  }
}
