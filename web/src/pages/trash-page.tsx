import { Can, useModelForceDelete, useModelRestore, useModelTrashed } from '@gatehouse/client';
import { useState } from 'react';
import { Pagination } from '../components/pagination.js';
import { Empty, ErrorNotice, Loading } from '../components/status.js';
import { formatDate, type Post } from '../post.js';

const PER_PAGE = 10;

export function TrashPage() {
  const [page, setPage] = useState(1);
  const trashed = useModelTrashed<Post>('posts', { page, perPage: PER_PAGE, sort: '-created_at' });
  const restore = useModelRestore<Post>('posts');
  const forceDelete = useModelForceDelete('posts');
  const failure = restore.error ?? forceDelete.error;

  return (
    <section>
      <div className="page-head">
        <h1>Trash</h1>
      </div>
      <p className="muted">Deleted posts stay here until they are restored or deleted for good.</p>
      {failure ? <ErrorNotice error={failure} /> : null}
      {trashed.isPending ? (
        <Loading what="deleted posts" />
      ) : trashed.error ? (
        <ErrorNotice error={trashed.error} retry={() => void trashed.refetch()} />
      ) : trashed.data!.length === 0 ? (
        <Empty>The trash is empty.</Empty>
      ) : (
        <table className="table" aria-label="Deleted posts">
          <thead>
            <tr>
              <th>Title</th>
              <th>Deleted</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {trashed.data!.map((post) => (
              <tr key={post.id}>
                <td>{post.title}</td>
                <td className="muted">{formatDate(post.deleted_at)}</td>
                <td className="row-actions">
                  <Can I="restore" a="posts" this={post}>
                    <button type="button" className="button button-small" disabled={restore.isPending} onClick={() => restore.mutate(post.id)}>
                      Restore
                    </button>
                  </Can>
                  <Can I="forceDelete" a="posts" this={post}>
                    <button type="button" className="button button-small button-danger" disabled={forceDelete.isPending} onClick={() => forceDelete.mutate(post.id)}>
                      Delete forever
                    </button>
                  </Can>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {trashed.data && <Pagination meta={trashed.meta} page={page} onPage={setPage} noun="deleted posts" />}
    </section>
  );
}
