import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A destination that does NOT deduplicate (every POST /records is a new record) and, with
 * probability `lateP`, saves the record and answers `lateMs` later (after the caller gave up).
 * GET /records?providerKey=… lists the records of a provider key (recovery's lookup).
 */
export interface Destination {
  readonly url: string;
  /** Records per provider key. */
  readonly records: Map<string, string[]>;
  readonly lateAnswers: () => number;
  total(): number;
  close(): Promise<void>;
}

export function startDestination(lateP: number, lateMs: number): Promise<Destination> {
  const records = new Map<string, string[]>();
  let total = 0;
  let late = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST') {
        const { providerKey } = JSON.parse(body) as { providerKey: string };
        const id = `REC-${++total}`;
        records.set(providerKey, [...(records.get(providerKey) ?? []), id]);
        const answer = () => res.end(JSON.stringify({ id }));
        if (Math.random() < lateP) {
          late++;
          setTimeout(answer, lateMs);
        } else answer();
        return;
      }
      const key = new URL(req.url!, 'http://x').searchParams.get('providerKey') ?? '';
      res.end(JSON.stringify(records.get(key) ?? []));
    });
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        records,
        lateAnswers: () => late,
        total: () => total,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}
