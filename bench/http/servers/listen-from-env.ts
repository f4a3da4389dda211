import type { INestApplication } from '@nestjs/common';

/**
 * Makes a baseline app listen where the benchmark told it to: HOST (must be loopback, default
 * 127.0.0.1) and PORT (default 0: any free port), and prints `listening on <url>` to stdout.
 * @throws Error when HOST is not a loopback address.
 */
export async function listenFromEnv(app: INestApplication, name: string): Promise<void> {
  const host = process.env['HOST'] ?? '127.0.0.1';
  if (!['127.0.0.1', '::1', 'localhost'].includes(host)) throw new Error(`${name}: HOST must be loopback`);
  app.enableShutdownHooks();
  await app.listen(Number(process.env['PORT'] ?? 0), host);
  process.stdout.write(`${name} listening on ${await app.getUrl()}\n`);
}
