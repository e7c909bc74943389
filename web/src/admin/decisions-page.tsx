import { useDecisions, useExplain, useMembers, usePermissionCatalog, type DecisionLogEntry } from '@gatehouse/client';
import { useState } from 'react';
import { DecisionTree } from '../components/decision-tree.js';
import { Pagination } from '../components/pagination.js';
import { Empty, ErrorNotice, Loading } from '../components/status.js';
import { isRefused, PageRefusal } from './page-refusal.js';
import { formatDate } from '../post.js';
import { explainableDecision } from './explainable-decision.js';

const PER_PAGE = 20;
const COLUMNS = 9;

/** What the request was about: its model, action and record; the route only for other requests. */
function RequestCell({ entry }: { entry: DecisionLogEntry }) {
  if (entry.model === null) {
    return (
      <code>
        {entry.method} {entry.route}
      </code>
    );
  }
  return (
    <span>
      <code>{entry.model}</code> {entry.action}
      {entry.record_id !== null && <> #{entry.record_id}</>}
    </span>
  );
}

function DecisionRow({ entry, who, otherServices }: { entry: DecisionLogEntry; who: string; otherServices: ReadonlySet<string> }) {
  const explain = useExplain();
  const explainable = explainableDecision(entry, otherServices);
  return (
    <>
      <tr>
        <td>{formatDate(entry.created_at)}</td>
        <td>{who}</td>
        <td>{entry.source === 'authorize' ? `authorize${entry.service === null ? '' : ` (${entry.service})`}` : 'request'}</td>
        <td>
          <RequestCell entry={entry} />
        </td>
        <td>{entry.status}</td>
        <td>{entry.gate}</td>
        <td>{entry.permission ? <code>{entry.permission}</code> : '—'}</td>
        <td>{entry.policy ?? '—'}</td>
        <td>
          {'request' in explainable ? (
            <button type="button" className="button button-small" disabled={explain.isPending} onClick={() => explain.mutate(explainable.request)}>
              Explain
            </button>
          ) : (
            <span className="muted">{explainable.why}</span>
          )}
        </td>
      </tr>
      {(explain.data || explain.error) && (
        <tr>
          <td colSpan={COLUMNS}>{explain.error ? <ErrorNotice error={explain.error} /> : <DecisionTree decision={explain.data!} />}</td>
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
  const otherServices = new Set((usePermissionCatalog().data ?? []).flatMap((entry) => (entry.service === undefined ? [] : [entry.resource])));
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
                <th>Source</th>
                <th>Request</th>
                <th>Status</th>
                <th>Gate</th>
                <th>Permission</th>
                <th>Policy</th>
                <th>Explain</th>
              </tr>
            </thead>
            <tbody>
              {decisions.data!.data.map((entry) => (
                <DecisionRow key={entry.id} entry={entry} otherServices={otherServices} who={entry.user_id === null ? 'anonymous' : (names.get(entry.user_id) ?? `user ${entry.user_id}`)} />
              ))}
            </tbody>
          </table>
          <Pagination meta={decisions.data!.meta} page={page} onPage={setPage} noun="refusals" />
        </>
      )}
    </section>
  );
}
