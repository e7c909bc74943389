import type { Decision, DecisionCheck } from '@gatehouse/client';

const GATE_NAMES: Record<DecisionCheck['gate'], string> = {
  authentication: 'Signed in',
  route_group: 'Route group',
  organization: 'Organization',
  membership: 'Membership',
  record: 'Record',
  policy: 'Policy',
  fields: 'Fields',
  include: 'Includes',
  administration: 'Administration',
  action: 'Action',
  request: 'Request',
};

function Sources({ check }: { check: DecisionCheck }) {
  const { permission } = check;
  if (!permission) return null;
  return (
    <ul>
      {permission.granted_by.map(({ source, entry }) => (
        <li key={`g-${source}-${entry}`}>
          granted by {source}: <code>{entry}</code>
        </li>
      ))}
      {permission.denied_by.map(({ entry }) => (
        <li key={`d-${entry}`}>
          denied for this member: <code>{entry}</code>
        </li>
      ))}
      {permission.granted_by.length === 0 && permission.denied_by.length === 0 && <li>no source grants {permission.permission}</li>}
    </ul>
  );
}

/** A decision of `POST {t}/explain` as a tree: the request, each gate in the server's order, the verdict. */
export function DecisionTree({ decision }: { decision: Decision }) {
  const { request, user } = decision;
  return (
    <div className="card decision" aria-label="Decision">
      <p>
        <code>
          {request.method} {request.route}
        </code>{' '}
        as {user.email} ({user.role})
      </p>
      <ol className="decision-checks">
        {decision.checks.map((check) => (
          <li key={check.gate} className={check.passed ? 'yes' : 'no'} data-gate={check.gate}>
            <strong>{GATE_NAMES[check.gate]}</strong> {check.passed ? '✓' : '✗'} {check.detail}
            <Sources check={check} />
          </li>
        ))}
      </ol>
      <p data-testid="verdict" className={decision.allowed ? 'yes' : 'no'}>
        {decision.allowed ? `Allowed (${decision.status})` : `Refused at ${GATE_NAMES[decision.gate!]} (${decision.status})`}
      </p>
    </div>
  );
}
