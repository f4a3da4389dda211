import cliProgress from 'cli-progress';
import type { OutputStream } from '../io.js';

/** The progress of a reconciliation: the uploads (bytes), then each phase of the background run. */
export interface RunProgress {
  /**
   * Shows `stage` (e.g. `upload export.csv`, `match`) at `done` of `total` `unit`s (the total
   * may change with the stage).
   */
  show(stage: string, done: number, total: number, unit: string): void;
  /** Clears the bar (before a note, or at the end); the next `show` draws a new one. */
  stop(): void;
}

const OFF: RunProgress = { show() {}, stop() {} };

/**
 * One cli-progress bar on `stream` (stderr) whose stage changes as the run goes on — drawn only
 * when the stream is a terminal and `enabled`, otherwise a no-op so piped stderr stays clean.
 */
export function startRunProgress(stream: OutputStream, enabled: boolean): RunProgress {
  if (!enabled || !stream.isTTY) return OFF;
  const bar = new cliProgress.SingleBar(
    {
      format: '{stage} {bar} {percentage}% | {value}/{total} {unit}',
      stream: stream as unknown as NodeJS.WritableStream,
      hideCursor: true,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let current: string | null = null;
  return {
    show(stage, done, total, unit) {
      const width = Math.max(1, total);
      const payload = { stage: stage.padEnd(24).slice(0, 24), unit };
      if (current === null) bar.start(width, done, payload);
      else {
        bar.setTotal(width);
        bar.update(Math.min(done, width), payload);
      }
      current = stage;
    },
    stop() {
      if (current !== null) bar.stop();
      current = null;
    },
  };
}
