/** One Server-Sent Event: its id, type and parsed JSON data. */
export interface ReceivedEvent {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: any;
}

/**
 * Follows an SSE stream with fetch and calls `onEvent` for every event as soon as its block is
 * complete (WHATWG event-stream framing: `id:`, `event:`, `data:`, comments, blank line).
 * @returns a function that disconnects.
 */
export async function followEvents(
  url: string,
  headers: Record<string, string>,
  onEvent: (event: ReceivedEvent) => void,
): Promise<() => void> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  if (!res.ok || !res.body) throw new Error(`subscription refused: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id: string | undefined;
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id') id = value;
          else if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length) onEvent({ id, event, data: JSON.parse(data.join('\n')) });
      }
    }
  })().catch(() => undefined);
  return () => abort.abort();
}
