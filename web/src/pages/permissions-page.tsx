import { useAbility, useUserRole, type ModelAction } from '@gatehouse/client';
import { ExplainForm } from '../components/explain-form.js';
import { ErrorNotice, Loading } from '../components/status.js';

const ACTIONS: ModelAction[] = ['index', 'show', 'store', 'update', 'destroy', 'trashed', 'restore', 'forceDelete'];
const MODELS = ['posts', 'comments', 'users'];

const list = (value: unknown) => (value === undefined ? '—' : Array.isArray(value) ? value.join(', ') : String(value));

/** The signed-in user's role, effective permissions and CASL rules in the selected organization. */
export function PermissionsPage() {
  const role = useUserRole();
  const ability = useAbility();

  if (role.isPending) return <Loading what="your permissions" />;
  if (role.error) return <ErrorNotice error={role.error} retry={() => void role.refetch()} />;
  const { role: roleName, permissions } = role.data!;
  return (
    <section>
      <div className="page-head">
        <h1>My permissions</h1>
      </div>
      <div className="card">
        <p>
          Role: <strong data-testid="role">{roleName ?? 'none'}</strong>
        </p>
        <p className="chips" aria-label="Effective permissions">
          {permissions.length === 0 ? <span className="muted">No permissions.</span> : permissions.map((permission) => <code key={permission}>{permission}</code>)}
        </p>
      </div>
      <h2>What you may do</h2>
      <table className="table matrix" aria-label="Allowed actions">
        <thead>
          <tr>
            <th>Model</th>
            {ACTIONS.map((action) => (
              <th key={action}>{action}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {MODELS.map((model) => (
            <tr key={model}>
              <th scope="row">{model}</th>
              {ACTIONS.map((action) => {
                const allowed = ability.can(action, model);
                return (
                  <td key={action} className={allowed ? 'yes' : 'no'} aria-label={`${action} ${model}: ${allowed ? 'allowed' : 'denied'}`}>
                    {allowed ? '✓' : '✗'}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <ExplainForm />
      <h2>Rules</h2>
      <table className="table" aria-label="Rules">
        <thead>
          <tr>
            <th>Effect</th>
            <th>Action</th>
            <th>Subject</th>
            <th>Fields</th>
            <th>Conditions</th>
          </tr>
        </thead>
        <tbody>
          {ability.rules.map((rule, index) => (
            <tr key={index}>
              <td className={rule.inverted ? 'no' : 'yes'}>{rule.inverted ? 'cannot' : 'can'}</td>
              <td>{list(rule.action)}</td>
              <td>{list(rule.subject)}</td>
              <td>{list(rule.fields)}</td>
              <td>{rule.conditions ? <code>{JSON.stringify(rule.conditions)}</code> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
