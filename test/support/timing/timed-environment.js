/**
 * Jest's node environment, plus one JSON line per test file with the file's wall time and the CPU
 * time of the jest worker while it ran (user + system, s), and of child processes the file waited
 * for (servers it spawned and stopped), appended to the file named by LEDGER_TEST_TIMINGS.
 * jest.config.js uses it only when that variable is set (`npm run test:timings`); the summary is
 * printed by ./timing-reporter.js. CPU of the PostgreSQL server is not included.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { TestEnvironment } from 'jest-environment-node';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on Linux). */
const TICKS = 100;

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

export default class TimedEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    this.started = { at: Date.now(), cpu: cpuSeconds() };
    await super.setup();
  }

  async teardown() {
    await super.teardown();
    const cpu = cpuSeconds();
    const line = {
      file: this.testPath,
      pid: process.pid,
      startMs: this.started.at,
      wallS: (Date.now() - this.started.at) / 1000,
      cpuS: +(cpu.self - this.started.cpu.self).toFixed(2),
      childCpuS: +(cpu.children - this.started.cpu.children).toFixed(2),
    };
    appendFileSync(process.env.LEDGER_TEST_TIMINGS, `${JSON.stringify(line)}\n`);
  }
}
