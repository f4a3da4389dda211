/**
 * At most `burst` lines per `windowMs` for each key (e.g. `503 GET /v1/claims`), so a flood of
 * identical refusals costs a few lines; the next line reports how many were left out. The table is
 * cleared when it grows past `maxKeys`.
 */
export class LogRateLimit {
  private readonly windows = new Map<string, { start: number; written: number; suppressed: number }>();

  /** `burst` lines per `windowMs` (ms) per key; at most `maxKeys` keys remembered. */
  constructor(
    private readonly burst = 10,
    private readonly windowMs = 10_000,
    private readonly maxKeys = 10_000,
  ) {}

  /** Whether a line for `key` may be written at `now` (epoch ms), and how many were left out. */
  admit(key: string, now: number): { readonly write: boolean; readonly suppressed: number } {
    let w = this.windows.get(key);
    if (!w) {
      if (this.windows.size >= this.maxKeys) this.windows.clear();
      w = { start: now, written: 0, suppressed: 0 };
      this.windows.set(key, w);
    }
    if (now - w.start >= this.windowMs) {
      w.start = now;
      w.written = 0;
    }
    if (w.written >= this.burst) {
      w.suppressed++;
      return { write: false, suppressed: 0 };
    }
    w.written++;
    const suppressed = w.suppressed;
    w.suppressed = 0;
    return { write: true, suppressed };
  }
}
