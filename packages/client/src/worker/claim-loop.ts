import { InProgressError } from '../errors.js';
import { sleep } from '../http/transport.js';
import { refusesField, type WorkerApi } from '../http/worker-api.js';
import type { ClaimAnswer, ClaimRequest } from '../types.js';
import type { RunOptions } from './run-options.js';
import type { Shortcuts } from './shortcuts.js';

const DEFAULT_POLL_MS = 1_000;
const MIN_WAIT_MS = 10;

/** A claim's successful answer, and when the request that got it was first sent (local epoch ms). */
export interface DecidedClaim {
  readonly answer: ClaimAnswer;
  /** Taken before the request: never later than the ledger's start of the lease it acquired. */
  readonly sentAt: number;
}

/**
 * Claims until acquired or replayed: with `waitIfInProgress`, a 409 `in-progress` waits the
 * holder's Retry-After (capped by `pollMs` and the deadline) and claims again. Every claim of one
 * call carries the request's `claimRequestId` (the transport resends the same body on its
 * retries), so a claim whose answer was lost is answered as the acquisition it made. A claim
 * naming `startStep` or `claimRequestId` that an older ledger refuses (400 naming the field) is
 * sent again without it, and the field is not sent again by this client.
 * @throws InProgressError past the deadline; every other refusal as its typed error.
 */
export async function claimUntilDecided(
  api: WorkerApi,
  shortcuts: Shortcuts,
  request: ClaimRequest,
  options: RunOptions,
): Promise<DecidedClaim> {
  const wait = options.waitIfInProgress;
  const deadline = wait ? Date.now() + wait.timeoutMs : 0;
  for (;;) {
    const sentAt = Date.now();
    try {
      return { answer: await claimOnce(api, shortcuts, request, options.signal), sentAt };
    } catch (err) {
      if (!(err instanceof InProgressError) || !wait) throw err;
      const left = deadline - Date.now();
      if (left <= 0) throw err;
      wait.onWait?.(err);
      const pause = Math.min(err.retryAfterMs, wait.pollMs ?? DEFAULT_POLL_MS, left);
      await sleep(Math.max(MIN_WAIT_MS, pause), options.signal);
    }
  }
}

/** `request` without the fields this client learnt the ledger refuses. */
export function acceptedFields(request: ClaimRequest, shortcuts: Shortcuts): ClaimRequest {
  const { startStep, claimRequestId, ...plain } = request;
  return {
    ...plain,
    ...(startStep !== undefined && shortcuts.claimStartStep !== false ? { startStep } : {}),
    ...(claimRequestId !== undefined && shortcuts.claimRequestIds !== false ? { claimRequestId } : {}),
  };
}

async function claimOnce(
  api: WorkerApi,
  shortcuts: Shortcuts,
  request: ClaimRequest,
  signal?: AbortSignal,
): Promise<ClaimAnswer> {
  for (;;) {
    const body = acceptedFields(request, shortcuts);
    try {
      const answer = await api.claim(body, signal);
      if (body.startStep !== undefined && answer.kind === 'acquired' && answer.startedStep)
        shortcuts.claimStartStep = true;
      if (body.claimRequestId !== undefined) shortcuts.claimRequestIds = true;
      return answer;
    } catch (err) {
      if (body.startStep !== undefined && refusesField(err, 'startStep')) {
        shortcuts.claimStartStep = false;
      } else if (body.claimRequestId !== undefined && refusesField(err, 'claimRequestId')) {
        shortcuts.claimRequestIds = false;
      } else {
        throw err;
      }
    }
  }
}
