import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { buildUnlessFresh } from '../support/build-unless-fresh.js';

export const ROOT = process.cwd();

/**
 * Makes sure `dist/` (what `npm start` runs: the server bundle dist/server/main.js, written last
 * but for the initdb template; `npm ci` builds it through `prepare`) is built from the current
 * sources: runs `npm run build` only when a source file is newer than the bundle.
 */
export function ensureBuilt(): void {
  buildUnlessFresh(
    ROOT,
    'dist/server/main.js',
    ['src', 'scripts', 'packages/protocol/src'],
    ['run', 'build', '--silent'],
  );
}

/**
 * The first port of the kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range; 32768
 * elsewhere): outgoing connections take their local ports from there, and a server binding one an
 * outgoing connection holds fails with EADDRINUSE (CI met it twice in one fault-tier run, on
 * random ports up to 60000 among hundreds of connections).
 */
function ephemeralStart(): number {
  try {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(start) || 32_768;
  } catch {
    return 32_768;
  }
}

/** A free TCP port on 127.0.0.1 from 20000 up to the ephemeral range (tests never use 3000). */
export async function freePort(): Promise<number> {
  const top = Math.max(ephemeralStart(), 20_001);
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * (top - 20_000));
    if (await canBind(port)) return port;
  }
}

/** True when `port` on 127.0.0.1 can be bound now (nothing listens there). */
export function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen({ port, host: '127.0.0.1', exclusive: true }, () => s.close(() => resolve(true)));
  });
}

/** A started command, its output so far and its exit. */
export interface Started {
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when the output matches `re` (rejects when the process exits first). */
  waitFor(re: RegExp): Promise<void>;
}

/**
 * Runs `command` in the repository root with `env` added, stdout and stderr piped (not a
 * terminal) and collected, in its own process group (so a test can clean up the whole tree).
 */
export function run(command: string, args: readonly string[], env: Record<string, string>): Started {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    out += chunk.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => out,
    exited,
    waitFor: (re) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (re.test(out)) {
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
        check();
        void exited.then(() => {
          if (!re.test(out)) reject(new Error(`exited before printing ${re}:\n${out}`));
        });
      }),
  };
}

/** Pids of the descendants of `pid` (from /proc), deepest last. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* gone */
    }
  }
  const all: number[] = [];
  const visit = (p: number) => {
    for (const c of children.get(p) ?? []) {
      all.push(c);
      visit(c);
    }
  };
  visit(pid);
  return all;
}

/** True while a process with this pid exists (and is not a zombie). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
