import { Can, useModelAudit, useModelDelete, useModelShow, useModelStore } from '@gatehouse/client';
import { useState, type FormEvent } from 'react';
import { Pagination } from '../components/pagination.js';
import { ErrorNotice, Loading } from '../components/status.js';
import { StatusBadge } from '../components/status-badge.js';
import { errorMessage } from '../error-message.js';
import { navigate } from '../routes.js';
import { formatDate, usePermissions, type Post } from '../post.js';

interface AuditEntry {
  id: number;
  action: string;
  user_id: number | null;
  new_values: Record<string, unknown> | null;
  created_at: string;
}

function DeleteButton({ post }: { post: Post }) {
  const remove = useModelDelete('posts');
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
        Delete
      </button>
    );
  }
  return (
    <span className="confirm">
      Move “{post.title}” to the trash?
      <button
        type="button"
        className="button button-danger"
        disabled={remove.isPending}
        // Not mutate's onSuccess, which is dropped when this button has unmounted by the time the
        // delete resolves (an error of the post's own query would unmount it).
        onClick={() => void remove.mutateAsync(post.id).then(() => navigate('/posts'), () => undefined)}
      >
        Yes, delete
      </button>
      <button type="button" className="button" onClick={() => setConfirming(false)}>
        Cancel
      </button>
      {remove.error ? <ErrorNotice error={remove.error} /> : null}
    </span>
  );
}

// The post's included comments are part of the post's query, so a new comment refetches the post.
function Comments({ post, onAdded }: { post: Post; onAdded: () => void }) {
  const store = useModelStore('comments');
  const [body, setBody] = useState('');
  const comments = post.comments ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    store.mutate({ post_id: post.id, body }, {
      onSuccess: () => {
        setBody('');
        onAdded();
      },
    });
  };
  return (
    <section className="card">
      <h2>Comments ({comments.length})</h2>
      {comments.length === 0 && <p className="muted">No comments yet.</p>}
      <ul className="comments">
        {comments.map((comment) => (
          <li key={comment.id}>
            <p>{comment.body}</p>
            <span className="muted">
              {comment.author?.name ?? `user ${comment.author_id}`} · {formatDate(comment.created_at)}
            </span>
          </li>
        ))}
      </ul>
      <Can I="store" a="comments">
        <form className="inline-form" onSubmit={submit}>
          <input aria-label="New comment" placeholder="Write a comment…" required value={body} onChange={(event) => setBody(event.target.value)} />
          <button type="submit" className="button" disabled={store.isPending}>
            Comment
          </button>
        </form>
        {store.error ? <ErrorNotice error={store.error} /> : null}
      </Can>
    </section>
  );
}

function History({ id }: { id: number }) {
  const [page, setPage] = useState(1);
  const audit = useModelAudit<AuditEntry>('posts', id, { page });
  if (audit.isPending) return <Loading what="history" />;
  if (audit.error) return <p className="muted">History: {errorMessage(audit.error)}</p>;
  return (
    <section className="card">
      <h2>History</h2>
      <ol className="history">
        {audit.data!.map((entry) => (
          <li key={entry.id}>
            <strong>{entry.action}</strong> by user {entry.user_id ?? '—'} · <span className="muted">{formatDate(entry.created_at)}</span>
            {entry.new_values && <span className="muted"> · {Object.keys(entry.new_values).join(', ')}</span>}
          </li>
        ))}
      </ol>
      {(audit.meta?.lastPage ?? 1) > 1 && <Pagination meta={audit.meta} page={page} onPage={setPage} noun="changes" />}
    </section>
  );
}

export function PostPage({ id }: { id: string }) {
  const permissions = usePermissions();
  const withAuthors = permissions.ability.can('index', 'users');
  const post = useModelShow<Post>(
    'posts',
    id,
    { include: withAuthors ? ['author', 'comments', 'comments.author'] : ['comments'] },
    { enabled: permissions.ready },
  );

  if (post.isPending) return <Loading what="the post" />;
  if (post.error) {
    return (
      <section>
        <a href="#/posts">← All posts</a>
        <ErrorNotice error={post.error} retry={() => void post.refetch()} />
      </section>
    );
  }
  const record = post.data!;
  return (
    <article className="post">
      <a href="#/posts">← All posts</a>
      <div className="page-head">
        <h1>{record.title}</h1>
        <div className="actions">
          <Can I="update" a="posts" this={record}>
            <a className="button" href={`#/posts/${record.id}/edit`}>
              Edit
            </a>
          </Can>
          <Can I="destroy" a="posts" this={record}>
            <DeleteButton post={record} />
          </Can>
        </div>
      </div>
      <p className="meta">
        <StatusBadge status={record.status} /> {record.author && <>by {record.author.name} · </>}
        <span className="muted">created {formatDate(record.created_at)}, updated {formatDate(record.updated_at)}</span>
      </p>
      <section className="card post-body">{record.body || <span className="muted">No body.</span>}</section>
      {'internal_notes' in record && (
        <section className="card internal-notes" aria-label="Internal notes">
          <h2>Internal notes</h2>
          <p>{record.internal_notes || <span className="muted">None.</span>}</p>
        </section>
      )}
      <Comments post={record} onAdded={() => void post.refetch()} />
      <History id={record.id} />
    </article>
  );
}
