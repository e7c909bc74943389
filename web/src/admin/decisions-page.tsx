import { useDecisions, useExplain, useMembers, type DecisionLogEntry } from '@gatehouse/client';
import { STANDARD_ACTIONS, type StandardAction } from '@gatehouse/engine/wire';
import { useState } from 'react';
import { DecisionTree } from '../components/decision-tree.js';
import { Pagination } from '../components/pagination.js';
import { Empty, ErrorNotice, Loading } from '../components/status.js';
import { isRefused, PageRefusal } from './page-refusal.js';
import { formatDate } from '../post.js';

const PER_PAGE = 20;

/** The model and action a refused permission names, when it is a standard action on a model. */
function explainable(permission: string | null): { model: string; action: StandardAction } | null {
  const [model, action] = permission?.split('.') ?? [];
  return model && (STANDARD_ACTIONS as readonly string[]).includes(action ?? '') ? { model, action: action as StandardAction } : null;
}

function DecisionRow({ entry, who }: { entry: DecisionLogEntry; who: string }) {
  const explain = useExplain();
  const target = explainable(entry.permission);
  return (
    <>
      <tr>
        <td>{formatDate(entry.created_at)}</td>
        <td>{who}</td>
        <td>
          <code>
            {entry.method} {entry.route}
          </code>
        </td>
        <td>{entry.status}</td>
        <td>{entry.gate}</td>
        <td>{entry.permission ? <code>{entry.permission}</code> : '—'}</td>
        <td>{entry.policy ?? '—'}</td>
        <td>
          {target && entry.user_id !== null && (
            <button type="button" className="button button-small" disabled={explain.isPending} onClick={() => explain.mutate({ ...target, userId: entry.user_id! })}>
              Explain
            </button>
          )}
        </td>
      </tr>
      {(explain.data || explain.error) && (
        <tr>
          <td colSpan={8}>{explain.error ? <ErrorNotice error={explain.error} /> : <DecisionTree decision={explain.data!} />}</td>
        </tr>
      )}
    </>
  );
}

/** The organization's recent refusals with their reasons; Explain replays one as a decision tree. */
export function DecisionsPage() {
  const [page, setPage] = useState(1);
  const decisions = useDecisions({ page, perPage: PER_PAGE });
  const names = new Map((useMembers().data ?? []).map((member) => [member.id, member.name]));
  if (isRefused(decisions.error)) return <PageRefusal title="Decisions" error={decisions.error} />;
  return (
    <section>
      <div className="page-head">
        <h1>Decisions</h1>
      </div>
      <p className="muted">Refused requests, newest first, as the decision log stored them.</p>
      {decisions.isPending ? (
        <Loading what="decisions" />
      ) : decisions.error ? (
        <ErrorNotice error={decisions.error} retry={() => void decisions.refetch()} />
      ) : decisions.data!.data.length === 0 ? (
        <Empty>No refusals recorded.</Empty>
      ) : (
        <>
          <table className="table" aria-label="Decisions">
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>Request</th>
                <th>Status</th>
                <th>Gate</th>
                <th>Permission</th>
                <th>Policy</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {decisions.data!.data.map((entry) => (
                <DecisionRow key={entry.id} entry={entry} who={entry.user_id === null ? 'anonymous' : (names.get(entry.user_id) ?? `user ${entry.user_id}`)} />
              ))}
            </tbody>
          </table>
          <Pagination meta={decisions.data!.meta} page={page} onPage={setPage} noun="refusals" />
        </>
      )}
    </section>
  );
}
