import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from '../harness.js';
import type { LoadCommand, LoadReply } from './load-protocol.js';

/** Distributes `Omit` over the command union, so each variant keeps its own fields. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * The benchmark's handle on its load-generator process (bench/http/load-generator.ts, forked with
 * the `advanced` IPC serialisation so latency arrays travel as typed arrays).
 */
export class LoadClient {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: LoadReply) => void>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: LoadReply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
    child.on('exit', (code) => {
      for (const [id, resolve] of this.waiting)
        resolve({ id, ok: false, error: `load generator exited (${code})` });
      this.waiting.clear();
    });
  }

  /** Forks the load generator. */
  static start(): LoadClient {
    const script = fileURLToPath(new URL('./load-generator.js', import.meta.url));
    return new LoadClient(
      fork(script, [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
  }

  /** Pid of the load-generator process. */
  get pid(): number {
    return this.child.pid!;
  }

  /**
   * Sends one command and waits for its answer, at most `timeoutMs`.
   * @throws Error with the generator's message when the command failed, or on timeout.
   */
  async send(command: WithoutId<LoadCommand>, timeoutMs = 120_000): Promise<LoadResult | string | null> {
    const id = this.nextId++;
    const reply = await new Promise<LoadReply>((resolve) => {
      const timer = setTimeout(
        () => resolve({ id, ok: false, error: `${command.cmd}: no answer in ${timeoutMs} ms` }),
        timeoutMs,
      );
      this.waiting.set(id, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      this.child.send({ ...command, id });
    });
    if (!reply.ok) throw new Error(reply.error);
    return reply.value;
  }

  /** Runs the open target for `durationMs` (bounded by `maxOps` too) and returns what it measured. */
  async load(durationMs: number, maxOps: number): Promise<LoadResult> {
    return (await this.send({ cmd: 'load', durationMs, maxOps }, durationMs + 60_000)) as LoadResult;
  }

  /** Ends the load generator (it closes its connections first). */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}
