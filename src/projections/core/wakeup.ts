/**
 * A level-triggered wake-up: {@link signal} sets a flag that the next {@link wait} consumes, so a
 * signal that arrives while the waiter is busy is not lost. One waiter at a time.
 */
export class Wakeup {
  private pending = false;
  private resolve: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;

  /** Wakes the waiter now, or makes its next wait return at once. */
  signal(): void {
    this.pending = true;
    this.fire();
  }

  /**
   * Resolves on the next signal (or at once if one is pending) or after `timeoutMs`.
   * @returns true when woken by a signal, false on timeout.
   */
  wait(timeoutMs: number): Promise<boolean> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      this.resolve = () => {
        const signalled = this.pending;
        this.pending = false;
        resolve(signalled);
      };
      this.timer = setTimeout(() => this.fire(), timeoutMs);
    });
  }

  private fire(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const resolve = this.resolve;
    this.resolve = null;
    resolve?.();
  }
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
