/**
 * Jest reporter for `npm run test:timings`: after the run, reads the lines ./timed-environment.js
 * appended to LEDGER_TEST_TIMINGS and prints every file's CPU, wall and GC-pause seconds and the
 * worker's heap after it (most CPU first), the sums, how many worker processes ran them, the
 * run's wall time and the load average at start and end (`os.loadavg()`): on a shared machine the
 * sum of CPU seconds is steadier than the wall time. Also writes every file's wall seconds as
 * `<name>.expected-wall-s.json`, the form ./sequencer.js reads.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, relative } from 'node:path';

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export default class TimingReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.file = process.env.LEDGER_TEST_TIMINGS;
  }

  onRunStart() {
    this.startedAt = Date.now();
    this.loadAtStart = load();
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true });
    writeFileSync(this.file, '');
  }

  onRunComplete() {
    if (!this.file || !existsSync(this.file)) return;
    const rows = readFileSync(this.file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .sort((a, b) => b.cpuS + b.childCpuS - (a.cpuS + a.childCpuS));
    const sum = (key) => rows.reduce((s, r) => s + (r[key] ?? 0), 0).toFixed(1);
    const col = (v, digits = 1) => (v ?? 0).toFixed(digits).padStart(7);
    const lines = rows.map(
      (r) =>
        `${col(r.cpuS)} ${col(r.childCpuS)} ${col(r.wallS)} ${col(r.gcS)} ${col(r.heapMB, 0)}  ${relative(this.rootDir, r.file)}`,
    );
    const wall = ((Date.now() - this.startedAt) / 1000).toFixed(1);
    const workers = new Set(rows.map((r) => r.pid)).size;
    const out = [
      "  cpu s child s  wall s    gc s heap MB  file (heap: the worker's, after the file)",
      ...lines,
      `${sum('cpuS').padStart(7)} ${sum('childCpuS').padStart(7)} ${sum('wallS').padStart(7)} ${sum('gcS').padStart(7)}          sum of ${rows.length} files in ${workers} worker processes`,
      `run wall ${wall} s; load average (1/5/15 min) at start ${this.loadAtStart}, at end ${load()}`,
    ].join('\n');
    writeFileSync(this.file.replace(/(\.jsonl)?$/, '.txt'), `${out}\n`);
    // The estimates ./sequencer.js orders a fresh checkout's files by (copy over expected-wall-s.json).
    const expected = Object.fromEntries(
      [...rows]
        .sort((a, b) => b.wallS - a.wallS)
        .map((r) => [relative(this.rootDir, r.file), Math.round(r.wallS * 10) / 10]),
    );
    writeFileSync(
      this.file.replace(/(\.jsonl)?$/, '.expected-wall-s.json'),
      `${JSON.stringify(expected, null, 1)}\n`,
    );
    process.stderr.write(`\n${out}\n`);
  }
}
