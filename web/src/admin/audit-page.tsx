import { useAuditTrail, useMembers, usePermissionCatalog } from '@gatehouse/client';
import { useState } from 'react';
import { Pagination } from '../components/pagination.js';
import { Empty, ErrorNotice, Loading } from '../components/status.js';
import { formatDate } from '../post.js';
import { isRefused, PageRefusal } from './page-refusal.js';

const ACTIONS = ['created', 'updated', 'deleted', 'restored', 'force_deleted'];
const ADMINISTRATION_MODELS = ['memberships', 'role_permissions', 'organizations'];
const PER_PAGE = 20;

function Values({ values }: { values: Record<string, unknown> | null }) {
  if (values === null) return <span className="muted">—</span>;
  return (
    <dl className="values">
      {Object.entries(values).map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>
            <code>{JSON.stringify(value)}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Filter({ label, value, options, onChange }: { label: string; value: string; options: [string, string][]; onChange: (value: string) => void }) {
  return (
    <label>
      {label}{' '}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">all</option>
        {options.map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The organization's audit trail, newest first, with old and new values side by side. */
export function AuditPage() {
  const [page, setPage] = useState(1);
  const [model, setModel] = useState('');
  const [userId, setUserId] = useState('');
  const [action, setAction] = useState('');
  const models = [...(usePermissionCatalog().data ?? []).filter((entry) => entry.kind === 'model').map((entry) => entry.resource), ...ADMINISTRATION_MODELS];
  const members = useMembers().data ?? [];
  const trail = useAuditTrail({ page, perPage: PER_PAGE, model, userId: userId ? Number(userId) : undefined, action });
  const filtered = (set: (value: string) => void) => (value: string) => (set(value), setPage(1));
  if (isRefused(trail.error)) return <PageRefusal title="Audit trail" error={trail.error} />;
  return (
    <section>
      <div className="page-head">
        <h1>Audit trail</h1>
      </div>
      <div className="filters">
        <Filter label="Model" value={model} options={models.map((slug) => [slug, slug])} onChange={filtered(setModel)} />
        <Filter label="User" value={userId} options={members.map((member) => [String(member.id), member.name])} onChange={filtered(setUserId)} />
        <Filter label="Action" value={action} options={ACTIONS.map((name) => [name, name])} onChange={filtered(setAction)} />
      </div>
      {trail.isPending ? (
        <Loading what="the audit trail" />
      ) : trail.error ? (
        <ErrorNotice error={trail.error} retry={() => void trail.refetch()} />
      ) : trail.data!.data.length === 0 ? (
        <Empty>Nothing recorded.</Empty>
      ) : (
        <>
          <table className="table" aria-label="Audit trail">
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>Model</th>
                <th>Record</th>
                <th>Action</th>
                <th>Old values</th>
                <th>New values</th>
              </tr>
            </thead>
            <tbody>
              {trail.data!.data.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDate(entry.created_at)}</td>
                  <td>{entry.user?.name ?? <span className="muted">operator</span>}</td>
                  <td>{entry.model}</td>
                  <td>{entry.record_id}</td>
                  <td>{entry.action}</td>
                  <td>
                    <Values values={entry.old_values} />
                  </td>
                  <td>
                    <Values values={entry.new_values} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination meta={trail.data!.meta} page={page} onPage={setPage} noun="changes" />
        </>
      )}
    </section>
  );
}
