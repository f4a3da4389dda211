/** Metric families of a Prometheus text exposition: name → type and the label names of its samples. */
export type Families = Map<string, { type: string; labels: Set<string>; samples: number }>;

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+\S+/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="(?:[^"\\]|\\.)*"/g;

/**
 * Parses the text format 0.0.4 (https://prometheus.io/docs/instrumenting/exposition_formats/)
 * enough to know which series exist: `# TYPE` lines name families; samples add their label names
 * to their family (histogram `_bucket`/`_sum`/`_count` samples count for the family and are
 * also listed under their own names, as PromQL selects them).
 */
export function parseExposition(text: string): Families {
  const families: Families = new Map();
  const family = (name: string, type = 'untyped') => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { type, labels: new Set(), samples: 0 }));
    return f;
  };
  for (const line of text.split('\n')) {
    const typed = /^# TYPE (\S+) (\S+)/.exec(line);
    if (typed) {
      family(typed[1]!, typed[2]!);
      if (typed[2] === 'histogram' || typed[2] === 'summary')
        for (const suffix of ['_bucket', '_sum', '_count']) family(typed[1]! + suffix, 'series');
      continue;
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const names = [...(m[3] ?? '').matchAll(LABEL)].map((l) => l[1]!);
    const base = m[1]!.replace(/_(bucket|sum|count)$/, '');
    for (const target of new Set([m[1]!, families.has(base) ? base : m[1]!])) {
      const f = family(target);
      f.samples += 1;
      for (const n of names) f.labels.add(n);
    }
  }
  return families;
}
