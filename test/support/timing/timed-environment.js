/**
 * The tests' environment (../ledger-environment.js), plus one JSON line per test file with the file's wall time and the CPU
 * time of the jest worker while it ran (user + system, s), of child processes the file waited for
 * (servers it spawned and stopped), and the worker's garbage-collection pauses (`gcS`); then what
 * the worker still holds afterwards: memory (`rssMB`, `heapMB`, `vszGB`), live handles and process
 * listeners — a file that leaks shows up there, and the files after it in the same worker pay for
 * it. Appended to the file named by LEDGER_TEST_TIMINGS. With LEDGER_TEST_GC_PROBE=1 and
 * `node --expose-gc` the heap is collected first, so `heapMB` is what is really retained.
 * jest.config.js uses it only when that variable is set (`npm run test:timings`); the summary is
 * printed by ./timing-reporter.js. CPU of the PostgreSQL server is not included.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import LedgerEnvironment from '../ledger-environment.js';

/** Milliseconds of garbage collection pauses in this worker so far (all test files). */
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on Linux). */
const TICKS = 100;

/** VmSize and VmRSS of this process from /proc/self/status (GB, MB; 0 elsewhere), V8 heap used (MB). */
function memory() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return {
      vszGB: +(kb('VmSize') / 1024 / 1024).toFixed(1),
      rssMB: Math.round(kb('VmRSS') / 1024),
      heapMB: Math.round(process.memoryUsage().heapUsed / 1024 / 1024),
    };
  } catch {
    return { vszGB: 0, rssMB: 0, heapMB: 0 };
  }
}

/** Kinds of the worker's live handles and requests (`process.getActiveResourcesInfo()`), counted. */
function activeResources() {
  const counts = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** CPU seconds of this process and of its waited-for children, from /proc/self/stat; 0 elsewhere. */
function cpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime, stime, cutime, cstime are fields 14–17.
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
    return { self: (utime + stime) / TICKS, children: (cutime + cstime) / TICKS };
  } catch {
    return { self: 0, children: 0 };
  }
}

export default class TimedEnvironment extends LedgerEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    this.started = { at: Date.now(), cpu: cpuSeconds(), gcMs };
    await super.setup();
  }

  async teardown() {
    await super.teardown();
    const cpu = cpuSeconds();
    if (process.env.LEDGER_TEST_GC_PROBE && typeof globalThis.gc === 'function') globalThis.gc();
    const line = {
      file: this.testPath,
      pid: process.pid,
      startMs: this.started.at,
      wallS: (Date.now() - this.started.at) / 1000,
      cpuS: +(cpu.self - this.started.cpu.self).toFixed(2),
      childCpuS: +(cpu.children - this.started.cpu.children).toFixed(2),
      gcS: +((gcMs - this.started.gcMs) / 1000).toFixed(2),
      ...memory(),
      activeAfter: activeResources(),
      processListeners: Object.fromEntries(
        process.eventNames().map((n) => [String(n), process.listenerCount(n)]),
      ),
    };
    appendFileSync(process.env.LEDGER_TEST_TIMINGS, `${JSON.stringify(line)}\n`);
  }
}
