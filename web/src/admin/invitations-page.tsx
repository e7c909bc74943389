import { useCancelInvitation, useInvitations, useInviteUser, useResendInvitation, useRoles, type Invitation } from '@gatehouse/client';
import { useState, type FormEvent } from 'react';
import { Empty, ErrorNotice, Loading } from '../components/status.js';
import { formatDate } from '../post.js';
import { isRefused, PageRefusal } from './page-refusal.js';

const STATUSES = ['pending', 'expired', 'accepted', 'cancelled'] as const;

interface ListedInvitation extends Invitation {
  status: (typeof STATUSES)[number];
  expires_at: string;
}

function InviteForm() {
  const roles = useRoles().data ?? [];
  const invite = useInviteUser();
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState<number | null>(null);
  const chosenRole = roleId ?? roles[0]?.id ?? null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosenRole !== null) invite.mutate({ email, role_id: chosenRole }, { onSuccess: () => setEmail('') });
  };
  return (
    <form className="card form-inline" onSubmit={submit} aria-label="Invite someone">
      <label>
        Email <input type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
      </label>
      <label>
        Role{' '}
        <select value={chosenRole ?? ''} onChange={(event) => setRoleId(Number(event.target.value))}>
          {roles.map((role) => (
            <option key={role.id} value={role.id}>
              {role.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button" disabled={invite.isPending}>
        Send invitation
      </button>
      {invite.isSuccess && <span role="status">Invitation sent.</span>}
      {invite.error && <ErrorNotice error={invite.error} />}
    </form>
  );
}

function InvitationRow({ invitation }: { invitation: ListedInvitation }) {
  const resend = useResendInvitation();
  const cancel = useCancelInvitation();
  // The row shows the answer to its latest action: starting one forgets the other's refusal.
  const error = resend.error ?? cancel.error;
  return (
    <tr>
      <td>{invitation.email}</td>
      <td>{invitation.status}</td>
      <td>{formatDate(invitation.expires_at)}</td>
      <td className="actions">
        {invitation.status === 'pending' && (
          <>
            <button type="button" className="button button-small" disabled={resend.isPending} onClick={() => (cancel.reset(), resend.mutate(invitation.id))}>
              Resend
            </button>
            <button type="button" className="button button-small button-danger" disabled={cancel.isPending} onClick={() => (resend.reset(), cancel.mutate(invitation.id))}>
              Cancel
            </button>
          </>
        )}
        {error && <ErrorNotice error={error} />}
      </td>
    </tr>
  );
}

/** Send, resend and cancel invitations, filtered by status. */
export function InvitationsPage() {
  const [status, setStatus] = useState('');
  const invitations = useInvitations<ListedInvitation>(status ? { status } : {});
  if (isRefused(invitations.error)) return <PageRefusal title="Invitations" error={invitations.error} />;
  return (
    <section>
      <div className="page-head">
        <h1>Invitations</h1>
      </div>
      <InviteForm />
      <label>
        Status{' '}
        <select value={status} onChange={(event) => setStatus(event.target.value)}>
          <option value="">all</option>
          {STATUSES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      {invitations.isPending ? (
        <Loading what="invitations" />
      ) : invitations.error ? (
        <ErrorNotice error={invitations.error} retry={() => void invitations.refetch()} />
      ) : invitations.data!.length === 0 ? (
        <Empty>No invitations.</Empty>
      ) : (
        <table className="table" aria-label="Invitations">
          <thead>
            <tr>
              <th>Email</th>
              <th>Status</th>
              <th>Expires</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {invitations.data!.map((invitation) => (
              <InvitationRow key={invitation.id} invitation={invitation} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
