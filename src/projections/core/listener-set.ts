/** A set of callbacks called with one argument; a throwing listener does not stop the others. */
export class ListenerSet<T> {
  private readonly listeners = new Set<(value: T) => void>();

  /** Adds `listener`. @returns a function removing it again (idempotent). */
  add(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Calls every listener with `value`, ignoring their errors. */
  emit(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        /* a listener's failure is its own */
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
