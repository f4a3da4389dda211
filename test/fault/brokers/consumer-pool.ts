import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const CONSUMER = resolve(process.cwd(), 'test/fault/broker-consumer.mjs');

/** The moments a consumer process SIGKILLs itself at (broker-consumer.mjs). */
export const KILL_MOMENTS = ['before-claim', 'during-step', 'after-save', 'before-ack'] as const;
export type KillMoment = (typeof KILL_MOMENTS)[number];

/**
 * `size` consumer processes kept alive: one that dies is replaced. While the kill budget lasts,
 * each new process is told one moment (round robin) to SIGKILL itself at with probability `killP`
 * per message; later ones run without kills.
 */
export class ConsumerPool {
  readonly kills = Object.fromEntries(KILL_MOMENTS.map((m) => [m, 0])) as Record<KillMoment, number>;
  readonly verdicts = new Map<string, number>();
  notSent = 0;
  private readonly alive = new Set<ChildProcess>();
  private spawned = 0;
  private replacing = true;

  constructor(
    private readonly env: Record<string, string>,
    private readonly size: number,
    private readonly killBudget: number,
    private readonly killP: number,
  ) {}

  get totalKills(): number {
    return Object.values(this.kills).reduce((a, b) => a + b, 0);
  }

  start(): void {
    this.replacing = true;
    while (this.alive.size < this.size) this.spawnOne();
  }

  /** SIGTERM every process (each settles its messages in flight) and waits for their exits. */
  async stop(): Promise<void> {
    this.replacing = false;
    const exits = [...this.alive].map((c) => new Promise((ok) => c.once('exit', ok)));
    for (const c of this.alive) c.kill('SIGTERM');
    const timeout = setTimeout(() => this.alive.forEach((c) => c.kill('SIGKILL')), 20_000);
    await Promise.all(exits);
    clearTimeout(timeout);
  }

  private spawnOne(): void {
    const killing = this.totalKills < this.killBudget;
    const moment = KILL_MOMENTS[this.spawned++ % KILL_MOMENTS.length]!;
    const child = spawn(process.execPath, [CONSUMER], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        ...this.env,
        KILL_AT: killing ? moment : '',
        KILL_P: killing ? String(this.killP) : '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.alive.add(child);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const [what, a, b] = line.split(' ');
      if (what === 'kill') this.kills[a as KillMoment]++;
      else if (what === 'not-sent') this.notSent++;
      else if (what === 'verdict') {
        const v = b ? `${a} ${b}` : a!;
        this.verdicts.set(v, (this.verdicts.get(v) ?? 0) + 1);
      }
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err = (err + d.toString('utf8')).slice(-2000);
      if (process.env.CHAOS_DEBUG) process.stderr.write(d);
    });
    child.once('exit', (code, signal) => {
      this.alive.delete(child);
      if (signal !== 'SIGKILL' && code !== 0 && this.replacing) {
        process.stderr.write(`consumer exited ${code ?? signal}: ${err}\n`);
      }
      if (this.replacing) this.spawnOne();
    });
  }
}
