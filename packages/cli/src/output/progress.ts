import cliProgress from 'cli-progress';
import type { OutputStream } from '../io.js';

/** A progress display: a cli-progress bar on a terminal, nothing otherwise. */
export interface Progress {
  /** Adds `n` finished items. */
  increment(n?: number): void;
  /** Raises the total (streamed inputs learn it as they go). */
  setTotal(total: number): void;
  stop(): void;
}

const OFF: Progress = { increment() {}, setTotal() {}, stop() {} };

/**
 * A progress bar on `stream` (stderr) with count, rate (items/s) and ETA — only when the stream
 * is a terminal and `enabled`; otherwise a no-op, so piped or captured stderr stays clean.
 * @param total items expected (0 when unknown yet).
 */
export function startProgress(
  stream: OutputStream,
  options: { total: number; label: string; enabled: boolean },
): Progress {
  if (!options.enabled || !stream.isTTY) return OFF;
  const started = Date.now();
  const bar = new cliProgress.SingleBar(
    {
      format: `${options.label} {bar} {percentage}% | {value}/{total} | {rate}/s | ETA {eta_formatted}`,
      stream: stream as unknown as NodeJS.WritableStream,
      hideCursor: true,
      etaBuffer: 200,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let value = 0;
  bar.start(options.total, 0, { rate: '0' });
  const rate = () => (value / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(0);
  return {
    increment(n = 1) {
      value += n;
      bar.increment(n, { rate: rate() });
    },
    setTotal(total) {
      bar.setTotal(total);
    },
    stop() {
      bar.stop();
    },
  };
}
