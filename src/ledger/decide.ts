import type { LedgerCommand } from './commands.js';
import { decideArchive } from './decide-archive.js';
import { decideClaim } from './decide-claim.js';
import { decideOperatorCommand } from './decide-operator.js';
import { decideEvidence, decideSupersede, decideSweep } from './decide-recovery.js';
import { decideRecordReference, decideResolve } from './decide-resolve.js';
import { decideWorkerCommand } from './decide-worker.js';
import type { Decision } from './decision.js';
import type { OperationState } from './operation-state.js';

/** The decider: routes any ledger command to its decision function. Pure. */
export function decide(command: LedgerCommand, state: OperationState): Decision<unknown> {
  switch (command.type) {
    case 'ClaimOperation':
      return decideClaim(command, state);
    case 'ResolveOperation':
      return decideResolve(command, state);
    case 'RecordDestinationReference':
      return decideRecordReference(command, state);
    case 'ApproveOperation':
    case 'RejectOperation':
    case 'ReplayOperation':
    case 'AcknowledgeDuplicateEffect':
      return decideOperatorCommand(command, state);
    case 'SubmitEvidence':
      return decideEvidence(command, state);
    case 'SweepExpiredLease':
      return decideSweep(command, state);
    case 'SupersedeRevision':
      return decideSupersede(command, state);
    case 'ArchiveOperation':
      return decideArchive(command, state);
    default:
      return decideWorkerCommand(command, state);
  }
}
