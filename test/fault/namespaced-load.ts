import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadAnswer, LoadOptions } from './claim-confirm-load.js';

/** {@link startClaimConfirmLoad} run by a child process inside a network namespace. */
export interface NamespacedLoad {
  /** Answers the child reported so far (every 100 ms). */
  readonly answers: LoadAnswer[];
  /** Labels the requests sent from now on. */
  setPhase(phase: string): void;
  /** Ends the client loops, waits for their last answers, and returns all of them. */
  stop(): Promise<LoadAnswer[]>;
  /** SIGKILLs the child (cleanup after a failure). */
  kill(): void;
}

// claim-confirm-load.ts imports nothing, so one SWC transform makes it a module the child can import.
const TRANSPILE = `
import { transformFileSync } from '@swc/core';
import { writeFileSync } from 'node:fs';
const [from, to] = process.argv.slice(1);
const { code } = transformFileSync(from, { swcrc: false, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } });
writeFileSync(to, code);
`;

// The child: runs the load, reports answers as `answer <json>` lines, takes `phase <name>` and `stop`.
const RUNNER = `
import { startClaimConfirmLoad } from './claim-confirm-load.mjs';
const o = JSON.parse(process.env.LOAD_OPTIONS);
let phase = o.firstPhase;
const load = startClaimConfirmLoad({ ...o, url: () => o.url, phase: () => phase });
let sent = 0;
const report = () => { while (sent < load.answers.length) process.stdout.write('answer ' + JSON.stringify(load.answers[sent++]) + '\\n'); };
const timer = setInterval(report, 100);
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', async (d) => {
  input += d;
  for (let i; (i = input.indexOf('\\n')) >= 0; ) {
    const line = input.slice(0, i);
    input = input.slice(i + 1);
    if (line.startsWith('phase ')) phase = line.slice(6);
    if (line === 'stop') { await load.stop(); report(); clearInterval(timer); process.stdout.write('stopped\\n'); process.exit(0); }
  }
});
`;

/**
 * Starts the claim/confirm load (claim-confirm-load.ts, same retries and answers) in `netns`, so
 * the workers' traffic crosses the test's network. `url` is the ledger as seen from there.
 */
export function startNamespacedLoad(
  netns: string,
  options: Omit<LoadOptions, 'url' | 'phase'> & { readonly url: string; readonly firstPhase: string },
): NamespacedLoad {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-ns-load-'));
  execFileSync(process.execPath, [
    '--input-type=module',
    '-e',
    TRANSPILE,
    join(process.cwd(), 'test/fault/claim-confirm-load.ts'),
    join(dir, 'claim-confirm-load.mjs'),
  ]);
  writeFileSync(join(dir, 'runner.mjs'), RUNNER);
  const child = spawn('ip', ['netns', 'exec', netns, process.execPath, join(dir, 'runner.mjs')], {
    env: { ...process.env, NODE_OPTIONS: '', LOAD_OPTIONS: JSON.stringify(options) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const answers: LoadAnswer[] = [];
  let output = '';
  let stopped: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (stopped = resolve));
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => {
    output += d;
    for (let i; (i = output.indexOf('\n')) >= 0;) {
      const line = output.slice(0, i);
      output = output.slice(i + 1);
      if (line.startsWith('answer ')) answers.push(JSON.parse(line.slice(7)) as LoadAnswer);
      if (line === 'stopped') stopped();
    }
  });
  child.once('exit', () => {
    stopped();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    answers,
    setPhase: (phase) => void child.stdin!.write(`phase ${phase}\n`),
    async stop() {
      child.stdin!.write('stop\n');
      await done;
      return answers;
    },
    kill: () => void child.kill('SIGKILL'),
  };
}
