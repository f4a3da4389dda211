import type { SyntaxNode } from '@lezer/common';
import { parser } from '@prometheus-io/lezer-promql';

/** One metric selector of a PromQL expression and the labels its matchers name. */
export interface SelectorReference {
  readonly metric: string;
  readonly labels: string[];
}

/** A `by`/`without`/`on`/`ignoring` label list and the metrics of the expression it groups. */
export interface GroupingReference {
  readonly labels: string[];
  readonly metrics: string[];
}

/** The metric and label names an expression references. */
export interface PromqlReferences {
  readonly selectors: SelectorReference[];
  readonly groupings: GroupingReference[];
}

/**
 * Parses `expr` with the Prometheus project's own PromQL grammar (@prometheus-io/lezer-promql, the
 * parser of the Prometheus UI) and lists the metrics it selects with the labels of their matchers,
 * and every grouping label list with the metrics selected under it.
 * @throws Error when `expr` is not valid PromQL (the parse tree has an error node).
 */
export function promqlReferences(expr: string): PromqlReferences {
  const tree = parser.parse(expr);
  const text = (n: SyntaxNode) => expr.slice(n.from, n.to);
  let error: SyntaxNode | null = null;
  tree.iterate({
    enter(ref) {
      if (ref.type.isError && !error) error = ref.node;
    },
  });
  if (error) throw new Error(`not valid PromQL at ${(error as SyntaxNode).from}: ${expr}`);
  const selectorOf = (n: SyntaxNode): SelectorReference | null => {
    const id = n.getChild('Identifier');
    if (!id) return null;
    const labels: string[] = [];
    const matchers = n.getChild('LabelMatchers');
    if (matchers)
      for (const m of [
        ...matchers.getChildren('UnquotedLabelMatcher'),
        ...matchers.getChildren('QuotedLabelMatcher'),
      ]) {
        const name = m.getChild('LabelName') ?? m.getChild('QuotedLabelName');
        if (name) labels.push(text(name).replace(/^"|"$/g, ''));
      }
    return { metric: text(id), labels };
  };
  const selectorsUnder = (n: SyntaxNode): string[] => {
    const metrics: string[] = [];
    const cursor = n.cursor();
    const end = n.to;
    do {
      if (cursor.from >= end) break;
      if (cursor.name === 'VectorSelector') {
        const s = selectorOf(cursor.node);
        if (s) metrics.push(s.metric);
      }
    } while (cursor.next());
    return metrics;
  };
  const selectors: SelectorReference[] = [];
  const groupings: GroupingReference[] = [];
  tree.iterate({
    enter(ref) {
      if (ref.name === 'VectorSelector') {
        const s = selectorOf(ref.node);
        if (s) selectors.push(s);
      } else if (ref.name === 'GroupingLabels') {
        // AggregateModifier → AggregateExpr, MatchingModifierClause → BinaryExpr.
        const owner = ref.node.parent?.parent;
        const labels = ref.node.getChildren('LabelName').map(text);
        if (owner) groupings.push({ labels, metrics: selectorsUnder(owner) });
      }
    },
  });
  return { selectors, groupings };
}

/**
 * A Grafana panel or variable expression with the dashboard's template variables replaced by
 * sample values, so that it parses as PromQL.
 */
export function withGrafanaVariables(expr: string): string {
  return expr.replace(/\$__rate_interval|\$__interval|\$__range/g, '5m').replace(/\$\{?tenant\}?/g, '.*');
}
