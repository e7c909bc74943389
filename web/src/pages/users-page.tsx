import { useModelIndex } from '@gatehouse/client';
import { useState } from 'react';
import { Pagination } from '../components/pagination.js';
import { Empty, ErrorNotice, Loading } from '../components/status.js';
import { formatDate } from '../post.js';

interface User {
  id: number;
  name: string;
  email: string;
  created_at: string;
}

const PER_PAGE = 10;

/** The admin route group's users, read through `/api/admin/users` (no tenancy). */
export function UsersPage() {
  const [page, setPage] = useState(1);
  const users = useModelIndex<User>('users', { page, perPage: PER_PAGE });
  return (
    <section>
      <div className="page-head">
        <h1>Users</h1>
      </div>
      <p className="muted">Every account of the service, as the admin route group lists them.</p>
      {users.isPending ? (
        <Loading what="users" />
      ) : users.error ? (
        <ErrorNotice error={users.error} retry={() => void users.refetch()} />
      ) : users.data!.length === 0 ? (
        <Empty>No users.</Empty>
      ) : (
        <table className="table" aria-label="Users">
          <thead>
            <tr>
              <th>#</th>
              <th>Name</th>
              <th>Email</th>
              <th>Joined</th>
            </tr>
          </thead>
          <tbody>
            {users.data!.map((user) => (
              <tr key={user.id}>
                <td className="muted">{user.id}</td>
                <td>{user.name}</td>
                <td>{user.email}</td>
                <td className="muted">{formatDate(user.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {users.data && <Pagination meta={users.meta} page={page} onPage={setPage} noun="users" />}
    </section>
  );
}
