import type { IndexMeta } from '@gatehouse/client';

interface PaginationProps {
  meta: IndexMeta | undefined;
  page: number;
  onPage: (page: number) => void;
  noun: string;
}

/** Previous and next, from the pagination headers the index answered with. */
export function Pagination({ meta, page, onPage, noun }: PaginationProps) {
  const last = meta?.lastPage ?? 1;
  return (
    <nav className="pagination" aria-label="Pages">
      <button type="button" className="button button-small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Previous
      </button>
      <span className="muted">
        Page {meta?.currentPage ?? page} of {last} · {meta?.total ?? 0} {noun}
      </span>
      <button type="button" className="button button-small" disabled={page >= last} onClick={() => onPage(page + 1)}>
        Next →
      </button>
    </nav>
  );
}
