import type { DuplicateAnswer, DuplicateClaimPrevented } from '../../../src/ledger/index.js';

/** The key of {@link duplicateClaim}'s operation. */
export const DUPLICATE_KEY = { tenant: 't', source: 's', action: 'a.b', subject: 'x', revision: 1 };

/** A `DuplicateClaimPrevented` of operation `op` answered at `at` (epoch ms), confirmed state. */
export function duplicateClaim(
  at: number,
  answer: DuplicateAnswer = 'replayed',
  workerId = 'w',
): DuplicateClaimPrevented {
  return {
    type: 'DuplicateClaimPrevented',
    data: {
      operationId: 'op',
      key: DUPLICATE_KEY,
      tenant: 't',
      attempt: 1,
      at: new Date(at).toISOString(),
      fingerprint: 'f',
      workerId,
      answer,
      state: 'confirmed',
    },
  };
}
