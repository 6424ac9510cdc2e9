// The registry pages' table (agents, tools): a filter box, columns sorted by a click on their heading (again: the
// other way), and the same sort as a menu for phones, where the table becomes one card per row and hides its headings.
// Also the line saying what the figures count (the window, the cap when reached).
import { useMemo, useState, type ReactNode } from 'react';
import type { StatsWindow } from '../core/usage-stats';
import { windowNote } from '../core/listings';

export interface Column<T> {
  key: string;
  label: string;
  cell(row: T): ReactNode;
  /** What the column sorts by; absent: not sortable. */
  sort?(row: T): number | string | null;
  /** Sorted largest first on the first click (counts, times, last use). */
  descending?: boolean;
}

interface Props<T> {
  name: string;
  rows: T[];
  columns: Column<T>[];
  rowKey(row: T): string;
  /** The words the filter box matches, lower case. */
  words(row: T): string;
  rowProps?(row: T): Record<string, string>;
  initialSort: string;
}

export function RegistryTable<T>({ name, rows, columns, rowKey, words, rowProps, initialSort }: Props<T>) {
  const [filter, setFilter] = useState('');
  const first = columns.find((c) => c.key === initialSort);
  const [sort, setSort] = useState({ key: initialSort, down: !!first?.descending });
  const shown = useMemo(() => {
    const wanted = filter.trim().toLowerCase();
    const column = columns.find((c) => c.key === sort.key);
    const kept = wanted ? rows.filter((r) => words(r).includes(wanted)) : rows;
    if (!column?.sort) return kept;
    const by = column.sort;
    return [...kept].sort((a, b) => compare(by(a), by(b), sort.down ? -1 : 1));
  }, [rows, filter, sort, columns, words]);
  const sortBy = (key: string) =>
    setSort((s) =>
      s.key === key ? { key, down: !s.down } : { key, down: !!columns.find((c) => c.key === key)?.descending },
    );

  return (
    <>
      <div className="registry-tools">
        <label>
          <span className="sr-only">Filter {name}</span>
          <input
            type="search"
            placeholder={`Filter ${name}…`}
            value={filter}
            data-testid="registry-filter"
            onChange={(e) => setFilter(e.target.value)}
          />
        </label>
        <label className="registry-sort">
          Sort by{' '}
          <select
            value={`${sort.key}:${sort.down ? 'down' : 'up'}`}
            data-testid="registry-sort"
            onChange={(e) => {
              const [key, way] = e.target.value.split(':');
              setSort({ key: key!, down: way === 'down' });
            }}
          >
            {columns
              .filter((c) => c.sort)
              .flatMap((c) => [
                <option key={`${c.key}:up`} value={`${c.key}:up`}>
                  {c.label} ↑
                </option>,
                <option key={`${c.key}:down`} value={`${c.key}:down`}>
                  {c.label} ↓
                </option>,
              ])}
          </select>
        </label>
        <span className="muted small" role="status">
          {shown.length} of {rows.length}
        </span>
      </div>
      <div className="table-wrap">
        <table className="registry">
          <thead>
            <tr>
              {columns.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={sort.key === c.key ? (sort.down ? 'descending' : 'ascending') : undefined}
                >
                  {c.sort ? (
                    <button type="button" className="sort" data-testid={`sort-${c.key}`} onClick={() => sortBy(c.key)}>
                      {c.label}
                      <span aria-hidden="true">{sort.key === c.key ? (sort.down ? ' ↓' : ' ↑') : ''}</span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={rowKey(r)} data-testid="registry-row" {...rowProps?.(r)}>
                {columns.map((c, i) =>
                  i === 0 ? (
                    <th key={c.key} scope="row">
                      {c.cell(r)}
                    </th>
                  ) : (
                    <td key={c.key} data-label={c.label} data-col={c.key}>
                      {c.cell(r)}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** `way` 1 ascending, -1 descending; nulls (never used, no time yet) last either way. */
function compare(a: number | string | null, b: number | string | null, way: number): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return way * (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)));
}

export function WindowNote({ window }: { window: StatsWindow }) {
  return (
    <p className={`small ${window.capped ? 'warn-text' : 'muted'}`} data-testid="registry-window">
      Usage from Temporal’s histories, {windowNote(window)}.
    </p>
  );
}

/** A time as the registry shows it: `2026-11-25 21:32` (UTC), or never. */
export const when = (iso: string | null | undefined) => (iso ? iso.slice(0, 16).replace('T', ' ') : 'never');
