/** One Server-Sent Event as received. */
export interface SseEvent {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: any;
}

/**
 * A minimal SSE client over fetch (WHATWG event-stream parsing: `id`, `event`, `data`, comments,
 * blank line dispatch), so tests can send `Last-Event-ID` and count exactly what arrives.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  status = 0;
  private readonly abort = new AbortController();
  private waiters: (() => void)[] = [];
  private done: Promise<void> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
  ) {}

  /** Connects; resolves once the response headers arrived (status in {@link status}). */
  async connect(): Promise<this> {
    const res = await fetch(this.url, {
      headers: { accept: 'text/event-stream', ...this.headers },
      signal: this.abort.signal,
    });
    this.status = res.status;
    if (!res.ok || !res.body) {
      this.events.push({ id: undefined, event: 'http-error', data: await res.text() });
      return this;
    }
    this.done = this.read(res.body.getReader()).catch(() => undefined);
    return this;
  }

  /** Events of type `type` received so far. */
  of(type: string): SseEvent[] {
    return this.events.filter((e) => e.event === type);
  }

  /** Waits until `count` events of `type` arrived (throws after `timeoutMs`). */
  async waitFor(type: string, count: number, timeoutMs = 15_000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.of(type).length < count) {
      if (Date.now() > deadline) throw new Error(`got ${this.of(type).length} of ${count} "${type}" events`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return this.of(type);
  }

  /** Disconnects. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.done;
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        this.dispatch(block);
      }
    }
  }

  private dispatch(block: string): void {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const [field, ...rest] = line.split(':');
      const value = rest.join(':').replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) return;
    this.events.push({ id, event, data: JSON.parse(data.join('\n')) });
    for (const w of this.waiters.splice(0)) w();
  }
}
