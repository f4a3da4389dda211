/** Whether a key may still be used: false once revoked or deleted; throws when it cannot be told. */
export type KeyStillValid = (keyId: string) => Promise<boolean>;

interface Watched {
  readonly listeners: Set<() => void>;
  readonly timer: NodeJS.Timeout;
}

/**
 * Ends subscriptions whose API key was revoked: one look-up per key and interval, however many
 * subscriptions hold it; a failed look-up changes nothing.
 */
export class KeyRevocationWatch {
  private readonly keys = new Map<string, Watched>();

  /**
   * @param stillValid asks the key store.
   * @param intervalMs how often each watched key is looked up (LEDGER_SSE_KEY_RECHECK_MS), ms.
   */
  constructor(
    private readonly stillValid: KeyStillValid,
    private readonly intervalMs: number,
  ) {}

  /**
   * Calls `onRevoked` once `keyId` is found revoked.
   * @returns a function that stops watching for this caller (idempotent).
   */
  watch(keyId: string, onRevoked: () => void): () => void {
    let watched = this.keys.get(keyId);
    if (!watched) {
      const timer = setInterval(() => void this.check(keyId), this.intervalMs);
      timer.unref();
      watched = { listeners: new Set(), timer };
      this.keys.set(keyId, watched);
    }
    const listener = () => onRevoked();
    watched.listeners.add(listener);
    const entry = watched;
    return () => {
      entry.listeners.delete(listener);
      if (entry.listeners.size === 0 && this.keys.get(keyId) === entry) {
        clearInterval(entry.timer);
        this.keys.delete(keyId);
      }
    };
  }

  /** Keys watched now. */
  get size(): number {
    return this.keys.size;
  }

  private async check(keyId: string): Promise<void> {
    let valid: boolean;
    try {
      valid = await this.stillValid(keyId);
    } catch {
      return;
    }
    const watched = this.keys.get(keyId);
    if (valid || !watched) return;
    for (const listener of [...watched.listeners]) listener();
  }
}
