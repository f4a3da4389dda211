import { InProgressError } from '../errors.js';
import { sleep } from '../http/transport.js';
import { refusesField, type LedgerApi } from '../http/worker-api.js';
import type { ClaimAnswer, ClaimRequest } from '../types.js';
import type { RunOptions } from './run-options.js';
import type { Shortcuts } from './shortcuts.js';

const DEFAULT_POLL_MS = 1_000;
const MIN_WAIT_MS = 10;

/**
 * Claims until acquired or replayed: with `waitIfInProgress`, a 409 `in-progress` waits the
 * holder's Retry-After (capped by `pollMs` and the deadline) and claims again. A claim naming
 * `startStep` that an older ledger refuses (400 naming the field) is sent again without it.
 * @throws InProgressError past the deadline; every other refusal as its typed error.
 */
export async function claimUntilDecided(
  api: LedgerApi,
  shortcuts: Shortcuts,
  request: ClaimRequest,
  options: RunOptions,
): Promise<ClaimAnswer> {
  const wait = options.waitIfInProgress;
  const deadline = wait ? Date.now() + wait.timeoutMs : 0;
  for (;;) {
    try {
      return await claimOnce(api, shortcuts, request, options.signal);
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

async function claimOnce(
  api: LedgerApi,
  shortcuts: Shortcuts,
  request: ClaimRequest,
  signal?: AbortSignal,
): Promise<ClaimAnswer> {
  const { startStep, ...plain } = request;
  if (startStep === undefined || shortcuts.claimStartStep === false) return api.claim(plain, signal);
  try {
    const answer = await api.claim(request, signal);
    if (answer.kind === 'acquired' && answer.startedStep) shortcuts.claimStartStep = true;
    return answer;
  } catch (err) {
    if (!refusesField(err, 'startStep')) throw err;
    shortcuts.claimStartStep = false;
    return api.claim(plain, signal);
  }
}
