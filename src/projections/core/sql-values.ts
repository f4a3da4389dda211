/** A timestamp column as ISO 8601 UTC (drivers return Date or text), or null. */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

/**
 * A `where` clause builder with numbered parameters (`$1`, `$2` …), so optional filters compose
 * without string-concatenating values.
 */
export class SqlFilter {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  /** Adds a condition; each `?` in `sql` is replaced by a new parameter holding the next of `values`. */
  add(sql: string, ...values: unknown[]): this {
    let i = 0;
    this.conditions.push(sql.replace(/\?/g, () => this.param(values[i++])));
    return this;
  }

  /** Adds a condition when `value` is defined. */
  addIf(sql: string, value: unknown): this {
    return value === undefined ? this : this.add(sql, value);
  }

  /** Adds `value` as the next parameter and returns its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** The conjunction of the conditions (`true` when none). */
  get where(): string {
    return this.conditions.length ? this.conditions.join(' and ') : 'true';
  }
}
