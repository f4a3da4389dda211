import { decideSupersede, supersessionCommands, type OperationKey } from '../../ledger/index.js';
import type { DecideAndAppend } from '../decide-and-append.js';
import type { RequestContext } from '../request-context.js';

/** Older revisions marked at once (each is one read and at most one append). */
const PARALLELISM = 16;

/**
 * Amendments: before revision r of a subject is claimed, runs the domain's
 * {@link supersessionCommands} — `OperationSuperseded` on every older revision 1..r-1, a no-op
 * where already superseded by r or later; a stream that does not exist yet is created with it —
 * through the decide-and-append loop, {@link PARALLELISM} at a time. Done before the claim: if
 * the process dies in between, the claim's retry marks them again. `now`: epoch ms.
 * @throws EventStoreUnavailableError; ContentionError.
 */
export async function supersedeOlderRevisions(
  loop: DecideAndAppend,
  key: OperationKey,
  ctx: RequestContext,
  now: number,
): Promise<void> {
  const commands = supersessionCommands(key, now);
  for (let i = 0; i < commands.length; i += PARALLELISM) {
    await Promise.all(
      commands
        .slice(i, i + PARALLELISM)
        .map((cmd) => loop.run(cmd.key, (state) => decideSupersede(cmd, state), ctx)),
    );
  }
}
