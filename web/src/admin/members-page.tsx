import { useMembers, useRemoveMember, useRoles, useUpdateMember, type Member } from '@gatehouse/client';
import { useState } from 'react';
import { Empty, ErrorNotice, Loading } from '../components/status.js';
import { isRefused, PageRefusal } from './page-refusal.js';
import { PermissionPicker } from './permission-picker.js';

function PermissionsEditor({ member, onDone }: { member: Member; onDone: () => void }) {
  const update = useUpdateMember();
  const [granted, setGranted] = useState(member.granted_permissions);
  const [denied, setDenied] = useState(member.denied_permissions);
  const save = () => update.mutate({ id: member.id, granted_permissions: granted, denied_permissions: denied }, { onSuccess: onDone });
  return (
    <div className="card" aria-label={`Permissions of ${member.email}`} role="group">
      <PermissionPicker label="Granted" value={granted} onChange={setGranted} />
      <PermissionPicker label="Denied" value={denied} onChange={setDenied} />
      {update.error && <ErrorNotice error={update.error} />}
      <div className="actions">
        <button type="button" className="button" disabled={update.isPending} onClick={save}>
          Save permissions
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function PermissionChips({ permissions }: { permissions: string[] }) {
  return <span className="chips">{permissions.map((permission) => <code key={permission}>{permission}</code>)}</span>;
}

function MemberRow({ member }: { member: Member }) {
  const roles = useRoles().data ?? [];
  const update = useUpdateMember();
  const remove = useRemoveMember();
  const [editing, setEditing] = useState(false);
  // The row shows the answer to its latest change: starting one forgets the other's refusal.
  const changeRole = (roleId: number) => (remove.reset(), update.mutate({ id: member.id, role_id: roleId }));
  const removeMember = () => (update.reset(), remove.mutate(member.id));
  const error = update.error ?? remove.error;
  return (
    <>
      <tr>
        <td>{member.name}</td>
        <td>{member.email}</td>
        <td>
          <select aria-label={`Role of ${member.email}`} value={member.role.id} disabled={update.isPending} onChange={(event) => changeRole(Number(event.target.value))}>
            {roles.map((role) => (
              <option key={role.id} value={role.id}>
                {role.name}
              </option>
            ))}
          </select>
        </td>
        <td>
          <PermissionChips permissions={member.granted_permissions} />
        </td>
        <td>
          <PermissionChips permissions={member.denied_permissions} />
        </td>
        <td className="row-actions">
          <button type="button" className="button button-small" onClick={() => setEditing(!editing)}>
            Edit permissions
          </button>
          <button type="button" className="button button-small button-danger" disabled={remove.isPending} onClick={() => window.confirm(`Remove ${member.email} from the organization?`) && removeMember()}>
            Remove
          </button>
        </td>
      </tr>
      {(editing || error) && (
        <tr>
          <td colSpan={6}>
            {error && <ErrorNotice error={error} />}
            {editing && <PermissionsEditor member={member} onDone={() => setEditing(false)} />}
          </td>
        </tr>
      )}
    </>
  );
}

/** The organization's members: role, per-user grants and denials, removal. */
export function MembersPage() {
  const members = useMembers();
  if (isRefused(members.error)) return <PageRefusal title="Members" error={members.error} />;
  return (
    <section>
      <div className="page-head">
        <h1>Members</h1>
      </div>
      {members.isPending ? (
        <Loading what="members" />
      ) : members.error ? (
        <ErrorNotice error={members.error} retry={() => void members.refetch()} />
      ) : members.data!.length === 0 ? (
        <Empty>No members.</Empty>
      ) : (
        <table className="table" aria-label="Members">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              <th>Granted</th>
              <th>Denied</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {members.data!.map((member) => (
              <MemberRow key={member.id} member={member} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
