import { Inject, Injectable } from '@nestjs/common';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';

/** Most keys tracked at once; the least recently seen are forgotten first. */
const MAX_TRACKED = 100_000;

interface Window {
  /** Start of the current window, epoch ms (a multiple of the window length). */
  start: number;
  current: number;
  previous: number;
}

/** Whether a request may proceed, and if not, after how many seconds to retry. */
export type RateDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterS: number };

/**
 * Per-key request rate limit: at most `rateLimitPerKey` requests per `rateLimitWindowMs`, with a
 * sliding-window counter (O(1) per key, no 2× burst at window edges). Refused requests are not
 * counted. In-process: each replica limits on its own.
 */
@Injectable()
export class KeyRateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(@Inject(LEDGER_CONFIG) private readonly config: LedgerConfig) {}

  /** Whether limiting is on (`rateLimitPerKey` > 0). */
  get enabled(): boolean {
    return this.config.rateLimitPerKey > 0;
  }

  /** Counts one request of `tracker` (e.g. `key:<id>`) at `now` (epoch ms) if it is allowed. */
  hit(tracker: string, now: number = Date.now()): RateDecision {
    const limit = this.config.rateLimitPerKey;
    if (limit <= 0) return { allowed: true };
    const length = this.config.rateLimitWindowMs;
    const start = now - (now % length);
    let w = this.windows.get(tracker);
    if (!w) {
      w = { start, current: 0, previous: 0 };
      if (this.windows.size >= MAX_TRACKED) this.windows.delete(this.windows.keys().next().value!);
    } else {
      this.windows.delete(tracker); // re-inserted below: Map order = least recently seen first
      if (start !== w.start) {
        w.previous = start - w.start === length ? w.current : 0;
        w.current = 0;
        w.start = start;
      }
    }
    this.windows.set(tracker, w);
    const overlap = 1 - (now - start) / length;
    const estimate = w.previous * overlap + w.current;
    if (estimate + 1 > limit) {
      return { allowed: false, retryAfterS: Math.max(1, Math.ceil((start + length - now) / 1000)) };
    }
    w.current++;
    return { allowed: true };
  }
}
