import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One series of a chart: label, colour and one value per x. */
export interface Series {
  readonly label: string;
  readonly color: string;
  readonly values: readonly number[];
}

/**
 * A time-series chart drawn by uPlot on a canvas: `xs` are bucket starts in epoch seconds. One
 * series is drawn as bars; several as lines with points (overlapping bars would hide each
 * other). Redrawn when the data changes; sized to its container.
 */
export function BarChart(props: {
  title: string;
  xs: readonly number[];
  series: readonly Series[];
  /** Bucket length, s: the x range is padded by half a bucket (a single bucket stays readable). */
  stepS: number;
  testId?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const single = props.series.length === 1;
    const bars = uPlot.paths.bars!({ size: [0.7, 40], align: 0 });
    const chart = new uPlot(
      {
        title: props.title,
        width: Math.max(320, el.clientWidth),
        height: 220,
        series: [
          {},
          ...props.series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: single ? 1 : 2,
            ...(single
              ? { fill: `${s.color}cc`, paths: bars, points: { show: false } }
              : { points: { show: true, size: 6 } }),
          })),
        ],
        axes: [{}, { size: 40 }],
        scales: {
          x: { time: true },
          y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
      },
      [props.xs as number[], ...props.series.map((s) => s.values as number[])],
      el,
    );
    // uPlot widens a single x value to years; show half a bucket either side instead.
    const xs = props.xs;
    if (xs.length > 0)
      chart.setScale('x', { min: xs[0]! - props.stepS / 2, max: xs[xs.length - 1]! + props.stepS / 2 });
    return () => chart.destroy();
  }, [props.title, props.xs, props.series, props.stepS]);
  return <div class="chart" ref={host} data-testid={props.testId} />;
}
