import { usePermissionCatalog, useRolePermissions, useRoles, useUpdateRolePermissions, type PermissionCatalogEntry, type RolePermissions } from '@gatehouse/client';
import { WILDCARD } from '@gatehouse/engine/wire';
import { useState } from 'react';
import { Empty, ErrorNotice, Loading } from '../components/status.js';
import { ConditionCell } from './condition-cell.js';
import { isRefused, PageRefusal } from './page-refusal.js';
import { coverage, difference, permissionOf, toggled } from './permission-lists.js';
import { useHolds } from './use-holds.js';

interface CellProps {
  permissions: string[];
  resource: string;
  action: string;
  holds: (permission: string) => boolean;
  onToggle: (permission: string, on: boolean) => void;
}

/** One checkbox: checked when the list names or implies it; disabled when implied or not held. */
function PermissionCell({ permissions, resource, action, holds, onToggle }: CellProps) {
  const permission = permissionOf(resource, action);
  const covered = coverage(permissions, resource, action);
  const held = holds(permission);
  const reason = covered.state === 'implied' ? `Implied by ${covered.by}` : held ? permission : `You do not hold ${permission}`;
  return (
    <td className={`cell cell-${covered.state}`} title={reason}>
      <input
        type="checkbox"
        aria-label={permission}
        aria-description={reason}
        checked={covered.state !== 'none'}
        disabled={covered.state === 'implied' || !held}
        onChange={(event) => onToggle(permission, event.target.checked)}
      />
    </td>
  );
}

interface MatrixTableProps {
  label: string;
  heading: string;
  entries: PermissionCatalogEntry[];
  columns: string[];
  permissions: string[];
  holds: CellProps['holds'];
  onToggle: CellProps['onToggle'];
}

function MatrixTable({ label, heading, entries, columns, permissions, holds, onToggle }: MatrixTableProps) {
  // Only models declare record conditions; the column shows when one of the table's does.
  const conditioned = entries.some((entry) => (entry.conditions ?? []).length > 0);
  return (
    <table className="table matrix" aria-label={label}>
      <thead>
        <tr>
          <th>{heading}</th>
          {columns.map((action) => (
            <th key={action}>{action}</th>
          ))}
          {conditioned && <th>Conditions</th>}
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.resource}>
            <th scope="row">
              {entry.resource}
              {entry.service !== undefined && <span className="muted"> ({entry.service})</span>}
            </th>
            {columns.map((action) =>
              action === WILDCARD || entry.actions.includes(action) ? (
                <PermissionCell key={action} permissions={permissions} resource={entry.resource} action={action} holds={holds} onToggle={onToggle} />
              ) : (
                <td key={action} className="cell cell-absent" />
              ),
            )}
            {conditioned && <ConditionCell resource={entry.resource} conditions={entry.conditions ?? []} actions={entry.actions} permissions={permissions} holds={holds} onToggle={onToggle} />}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface MatrixProps {
  saved: RolePermissions;
  catalog: PermissionCatalogEntry[];
  /** Owned by the page: the matrix remounts with the saved list, and the save's outcome outlives it. */
  update: ReturnType<typeof useUpdateRolePermissions>;
}

function Matrix({ saved, catalog, update }: MatrixProps) {
  const holds = useHolds();
  const [draft, setDraft] = useState(saved.permissions);
  const [reviewing, setReviewing] = useState(false);
  const { added, removed } = difference(saved.permissions, draft);
  const onToggle = (permission: string, on: boolean) => (setDraft(toggled(draft, permission, on)), update.reset());
  const models = catalog.filter((entry) => entry.kind === 'model');
  const administration = catalog.filter((entry) => entry.kind === 'administration');
  const modelColumns = [...(models[0]?.actions ?? []), WILDCARD];
  const administrationColumns = [...new Set(administration.flatMap((entry) => entry.actions)), WILDCARD];
  const others = catalog.filter((entry) => entry.kind === 'service');
  const otherColumns = [...new Set(others.flatMap((entry) => entry.actions)), WILDCARD];
  const save = () => update.mutate({ roleId: saved.role.id, permissions: draft }, { onSuccess: () => setReviewing(false) });
  const unsaved = added.length + removed.length > 0;
  return (
    <div>
      <p>
        <label>
          <PermissionCellAll permissions={draft} holds={holds} onToggle={onToggle} /> Everything (<code>*</code>)
        </label>
      </p>
      <MatrixTable label={`Permissions of ${saved.role.name}`} heading="Model" entries={models} columns={modelColumns} permissions={draft} holds={holds} onToggle={onToggle} />
      <MatrixTable label={`Administration permissions of ${saved.role.name}`} heading="Administration" entries={administration} columns={administrationColumns} permissions={draft} holds={holds} onToggle={onToggle} />
      {others.length > 0 && (
        <MatrixTable label={`Other services' permissions of ${saved.role.name}`} heading="Other services" entries={others} columns={otherColumns} permissions={draft} holds={holds} onToggle={onToggle} />
      )}
      {update.error && <ErrorNotice error={update.error} />}

      {reviewing ? (
        <div className="card" role="dialog" aria-label="Changes to save">
          <p>Added: {added.length === 0 ? <span className="muted">nothing</span> : added.map((permission) => <code key={permission} className="added">+{permission}</code>)}</p>
          <p>Removed: {removed.length === 0 ? <span className="muted">nothing</span> : removed.map((permission) => <code key={permission} className="removed">−{permission}</code>)}</p>
          <div className="actions">
            <button type="button" className="button" disabled={update.isPending} onClick={save}>
              Confirm and save
            </button>
            <button type="button" className="button" onClick={() => setReviewing(false)}>
              Back
            </button>
          </div>
        </div>
      ) : (
        <div className="actions">
          <button type="button" className="button" disabled={!unsaved} onClick={() => setReviewing(true)}>
            Review changes
          </button>
          <button type="button" className="button" disabled={!unsaved} onClick={() => setDraft(saved.permissions)}>
            Discard
          </button>
        </div>
      )}
    </div>
  );
}

function PermissionCellAll({ permissions, holds, onToggle }: Pick<CellProps, 'permissions' | 'holds' | 'onToggle'>) {
  const held = holds(WILDCARD);
  return (
    <input
      type="checkbox"
      aria-label={WILDCARD}
      title={held ? WILDCARD : `You do not hold ${WILDCARD}`}
      checked={permissions.includes(WILDCARD)}
      disabled={!held}
      onChange={(event) => onToggle(WILDCARD, event.target.checked)}
    />
  );
}

/** A role x permission matrix per role; saving shows the difference first, then sends one PUT. */
export function RolesPage() {
  const roles = useRoles();
  const catalog = usePermissionCatalog();
  const update = useUpdateRolePermissions();
  const [picked, setPicked] = useState<number | null>(null);
  const roleId = picked ?? roles.data?.[0]?.id ?? null;
  const permissions = useRolePermissions(roleId);
  if (isRefused(permissions.error)) return <PageRefusal title="Roles" error={permissions.error} />;
  if (roles.isPending || catalog.isPending) return <Loading what="roles" />;
  if (roles.error || catalog.error) return <ErrorNotice error={roles.error ?? catalog.error} />;
  if (roles.data!.length === 0) return <Empty>No roles are configured in this organization.</Empty>;
  return (
    <section>
      <div className="page-head">
        <h1>Roles</h1>
      </div>
      <div className="tabs" role="tablist" aria-label="Roles">
        {roles.data!.map((role) => (
          <button key={role.id} type="button" role="tab" aria-selected={role.id === roleId} className={role.id === roleId ? 'tab active' : 'tab'} onClick={() => (setPicked(role.id), update.reset())}>
            {role.name}
          </button>
        ))}
      </div>
      {permissions.isPending ? (
        <Loading what="the role's permissions" />
      ) : permissions.error ? (
        <ErrorNotice error={permissions.error} retry={() => void permissions.refetch()} />
      ) : (
        <Matrix key={`${roleId}:${permissions.data!.permissions.join(',')}`} saved={permissions.data!} catalog={catalog.data!} update={update} />
      )}
      {update.isSuccess && update.variables.roleId === roleId && (
        <p className="saved" role="status">
          Saved the permissions of {roles.data!.find((role) => role.id === roleId)?.name}.
        </p>
      )}
    </section>
  );
}
