import { Can, useDebouncedValue, useModelIndex } from '@gatehouse/client';
import { useState } from 'react';
import { Pagination } from '../components/pagination.js';
import { Empty, ErrorNotice, Loading } from '../components/status.js';
import { StatusBadge } from '../components/status-badge.js';
import { formatDate, POST_STATUSES, usePermissions, type Post } from '../post.js';

const SORTS = [
  { value: '-created_at', label: 'Newest first' },
  { value: 'created_at', label: 'Oldest first' },
  { value: 'title', label: 'Title A–Z' },
  { value: '-title', label: 'Title Z–A' },
];
const PAGE_SIZES = [5, 10, 20];

export function PostsPage() {
  const permissions = usePermissions();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState(SORTS[0]!.value);
  const [status, setStatus] = useState('');
  const [perPage, setPerPage] = useState(PAGE_SIZES[0]!);
  const [page, setPage] = useState(1);
  const debouncedSearch = useDebouncedValue(search.trim(), 250);
  const withAuthor = permissions.ability.can('index', 'users');
  const posts = useModelIndex<Post>(
    'posts',
    { search: debouncedSearch, sort, page, perPage, filter: status ? { status } : undefined, include: withAuthor ? 'author' : undefined },
    { enabled: permissions.ready },
  );
  const showNotes = posts.data?.some((post) => 'internal_notes' in post) ?? false;
  const changed = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPage(1);
  };

  return (
    <section>
      <div className="page-head">
        <h1>Posts</h1>
        <Can I="store" a="posts">
          <a className="button button-primary" href="#/posts/new">
            New post
          </a>
        </Can>
      </div>
      <div className="toolbar">
        <input type="search" aria-label="Search posts" placeholder="Search title and body…" value={search} onChange={(event) => changed(setSearch)(event.target.value)} />
        <select aria-label="Status" value={status} onChange={(event) => changed(setStatus)(event.target.value)}>
          <option value="">Any status</option>
          {POST_STATUSES.map((value) => (
            <option key={value}>{value}</option>
          ))}
        </select>
        <select aria-label="Sort" value={sort} onChange={(event) => changed(setSort)(event.target.value)}>
          {SORTS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <select aria-label="Posts per page" value={perPage} onChange={(event) => changed(setPerPage)(Number(event.target.value))}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size} per page
            </option>
          ))}
        </select>
      </div>
      {permissions.error ? <ErrorNotice error={permissions.error} /> : null}
      {posts.isPending ? (
        <Loading what="posts" />
      ) : posts.error ? (
        <ErrorNotice error={posts.error} retry={() => void posts.refetch()} />
      ) : posts.data!.length === 0 ? (
        <Empty>{debouncedSearch || status ? 'No post matches.' : 'No posts yet.'}</Empty>
      ) : (
        <table className="table" aria-label="Posts">
          <thead>
            <tr>
              <th>Title</th>
              <th>Status</th>
              {withAuthor && <th>Author</th>}
              <th>Created</th>
              {showNotes && <th>Internal notes</th>}
            </tr>
          </thead>
          <tbody>
            {posts.data!.map((post) => (
              <tr key={post.id}>
                <td>
                  <a href={`#/posts/${post.id}`}>{post.title}</a>
                </td>
                <td>
                  <StatusBadge status={post.status} />
                </td>
                {withAuthor && <td>{post.author?.name ?? '—'}</td>}
                <td className="muted">{formatDate(post.created_at)}</td>
                {showNotes && <td className="notes-cell">{post.internal_notes ?? ''}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {posts.isFetching && !posts.isPending && <div className="refreshing muted">Updating…</div>}
      {posts.data && <Pagination meta={posts.meta} page={page} onPage={setPage} noun="posts" />}
    </section>
  );
}
