import { Inject, Injectable } from '@nestjs/common';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';
import type { Caller } from './caller.js';

/** Seconds a refused subscriber is told to wait before trying again. */
export const SSE_RETRY_AFTER_S = 5;

/** One held SSE connection slot; `release()` is idempotent. */
export interface SseConnectionLease {
  release(): void;
}

/** No slot: `caller`'s key holds `held` connections, the cap (answered 429 `rate-limited`). */
export interface SseConnectionsRefused {
  readonly kind: 'refused';
  readonly held: number;
  readonly retryAfterS: number;
}

/** Caps the open SSE subscriptions per API key (LedgerConfig.maxSsePerKey), in this process. */
@Injectable()
export class SseConnectionLimiter {
  private readonly open = new Map<string, number>();

  constructor(@Inject(LEDGER_CONFIG) private readonly config: LedgerConfig) {}

  /** Takes a connection slot for `caller`'s key, or answers that the key is at the cap. */
  acquire(
    caller: Caller,
  ): { readonly kind: 'acquired'; readonly lease: SseConnectionLease } | SseConnectionsRefused {
    const held = this.open.get(caller.keyId) ?? 0;
    if (held >= this.config.maxSsePerKey) return { kind: 'refused', held, retryAfterS: SSE_RETRY_AFTER_S };
    this.open.set(caller.keyId, held + 1);
    let released = false;
    const lease: SseConnectionLease = {
      release: () => {
        if (released) return;
        released = true;
        const n = (this.open.get(caller.keyId) ?? 1) - 1;
        if (n <= 0) this.open.delete(caller.keyId);
        else this.open.set(caller.keyId, n);
      },
    };
    return { kind: 'acquired', lease };
  }

  /** Open connections of `caller`'s key. */
  count(caller: Caller): number {
    return this.open.get(caller.keyId) ?? 0;
  }
}
