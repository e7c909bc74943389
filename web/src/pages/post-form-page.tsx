import { useModelShow, useModelStore, useModelUpdate } from '@gatehouse/client';
import { useState, type FormEvent } from 'react';
import { ErrorNotice, Loading } from '../components/status.js';
import { fieldErrors } from '../error-message.js';
import { navigate } from '../routes.js';
import { POST_STATUSES, type Post } from '../post.js';

type Values = Record<'title' | 'body' | 'status' | 'internal_notes', string>;

const valuesOf = (post: Post | undefined): Values => ({
  title: post?.title ?? '',
  body: post?.body ?? '',
  status: post?.status ?? 'draft',
  internal_notes: post?.internal_notes ?? '',
});

/**
 * Only what the user filled in (a new post) or changed (an edit) is sent: the server answers 403
 * for a field the caller may not set, even with an unchanged value.
 */
function changes(values: Values, initial: Values, creating: boolean): Partial<Values> {
  return Object.fromEntries(
    Object.entries(values).filter(([field, value]) => (creating ? value !== '' || field === 'title' : value !== initial[field as keyof Values])),
  );
}

function FieldError({ errors, field }: { errors: Record<string, string[]>; field: string }) {
  const messages = errors[field];
  return messages ? <span className="field-error">{messages.join(' ')}</span> : null;
}

function PostForm({ post }: { post?: Post }) {
  const initial = valuesOf(post);
  const [values, setValues] = useState(initial);
  const store = useModelStore<Post>('posts');
  const update = useModelUpdate<Post>('posts');
  const mutation = post ? update : store;
  const errors = fieldErrors(mutation.error);
  const showNotes = !post || 'internal_notes' in post;
  const set = (field: keyof Values) => (event: { target: { value: string } }) => setValues({ ...values, [field]: event.target.value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const data = changes(values, initial, !post);
    const saved = { onSuccess: (record: Post) => navigate(`/posts/${record.id}`) };
    if (post) update.mutate({ id: post.id, data }, saved);
    else store.mutate(data, saved);
  };

  return (
    <form className="card form" onSubmit={submit}>
      <label>
        Title
        <input name="title" value={values.title} onChange={set('title')} aria-invalid={errors.title ? true : undefined} />
        <FieldError errors={errors} field="title" />
      </label>
      <label>
        Body
        <textarea name="body" rows={6} value={values.body} onChange={set('body')} />
        <FieldError errors={errors} field="body" />
      </label>
      <label>
        Status
        <select name="status" value={values.status} onChange={set('status')}>
          {POST_STATUSES.map((status) => (
            <option key={status}>{status}</option>
          ))}
        </select>
        <FieldError errors={errors} field="status" />
      </label>
      {showNotes && (
        <label>
          Internal notes
          <textarea name="internal_notes" rows={3} value={values.internal_notes} onChange={set('internal_notes')} />
          <span className="hint">Staff only. Whether your role may set it is the server's decision.</span>
        </label>
      )}
      {mutation.error ? <ErrorNotice error={mutation.error} /> : null}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving…' : post ? 'Save changes' : 'Create post'}
        </button>
        <a className="button" href={post ? `#/posts/${post.id}` : '#/posts'}>
          Cancel
        </a>
      </div>
    </form>
  );
}

export function PostFormPage({ id }: { id?: string }) {
  const existing = useModelShow<Post>('posts', id);
  return (
    <section className="narrow">
      <h1>{id ? 'Edit post' : 'New post'}</h1>
      {!id ? <PostForm /> : existing.isPending ? <Loading what="the post" /> : existing.error ? <ErrorNotice error={existing.error} /> : <PostForm post={existing.data!} />}
    </section>
  );
}
