// The metrics page picks its bucket size so that a fresh install or a short range charts as more
// than one bar: minutes up to 6 h, hours up to 31 days, else days.
import { autoBucket } from '../../packages/console/src/pages/metrics-bucket.js';

const H = 3_600_000;
const T0 = Date.parse('2026-12-04T10:00:00.000Z');

describe('autoBucket', () => {
  it('a fresh install (one hour of data, or none) is charted per minute', () => {
    expect(autoBucket({}, [T0])).toBe('minute');
    expect(autoBucket({}, [])).toBe('minute');
  });

  it('the span of the data, or of a complete range, decides', () => {
    expect(autoBucket({}, [T0, T0 + 5 * H])).toBe('minute');
    expect(autoBucket({}, [T0, T0 + 6 * H])).toBe('hour');
    expect(autoBucket({}, [T0, T0 + 40 * 24 * H])).toBe('day');
    const from = new Date(T0).toISOString();
    expect(autoBucket({ from, to: new Date(T0 + 2 * H).toISOString() }, [T0 - 90 * 24 * H])).toBe('minute');
    expect(autoBucket({ from, to: new Date(T0 + 10 * 24 * H).toISOString() }, [])).toBe('hour');
  });
});
