import { createTable, getCoreRowModel, type ColumnDef } from '@tanstack/table-core';
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';

/** A column: an id, its header text and a cell renderer of one row. */
export interface Column<T> {
  readonly id: string;
  readonly header: string;
  readonly cell: (row: T) => ComponentChildren;
}

/**
 * A table of `rows` by `columns`, laid out by TanStack Table's headless core (header groups, row
 * model, stable row ids from `rowId`). Rows come ordered from the server, so no client sorting.
 */
export function DataTable<T>(props: {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowId: (row: T) => string;
  empty: string;
  testId?: string;
}) {
  const { columns, rows, rowId } = props;
  const table = useMemo(() => {
    const t = createTable<T>({
      data: rows as T[],
      columns: columns.map((c): ColumnDef<T, unknown> => ({ id: c.id, header: c.header })),
      getCoreRowModel: getCoreRowModel(),
      getRowId: (row) => rowId(row),
      state: {},
      onStateChange: () => undefined,
      renderFallbackValue: null,
    });
    // The core reads its feature state (pinning, visibility…) from options.state: start from its defaults.
    t.setOptions((prev) => ({ ...prev, state: t.initialState }));
    return t;
  }, [columns, rows, rowId]);
  const render = useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);
  const model = table.getRowModel();
  return (
    <table class="grid" data-testid={props.testId}>
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((h) => (
              <th key={h.id}>{render.get(h.column.id)?.header}</th>
            ))}
          </tr>
        ))}
      </thead>
      <tbody>
        {model.rows.length === 0 ? (
          <tr>
            <td class="empty" colSpan={columns.length}>
              {props.empty}
            </td>
          </tr>
        ) : (
          model.rows.map((row) => (
            <tr key={row.id} data-row-id={row.id}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id}>{render.get(cell.column.id)?.cell(row.original)}</td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
