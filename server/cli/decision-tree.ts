import type { Decision, DecisionCheck as Check } from '@gatehouse/engine';
import { conditionText } from './condition-text.js';

const INDENT = '  ';

function checkLines(check: Check): string[] {
  const lines = [`${check.gate}: ${check.passed ? 'passed' : 'REFUSED'} (${check.detail})`];
  if (check.policy) {
    const { policy } = check;
    lines.push(`${INDENT}policy method: ${policy.allowed ? 'allowed' : `refused${policy.refused_by === null ? '' : ` by ${policy.refused_by}`}`}`);
  }
  if (check.permission) {
    const { permission } = check;
    lines.push(`${INDENT}permission ${permission.permission}: ${permission.allowed ? 'held' : 'not held'}${permission.superadmin ? ' (superadmin)' : ''}`);
    for (const { source, entry } of permission.granted_by) lines.push(`${INDENT}${INDENT}granted by ${source}: ${entry}`);
    for (const { source, entry } of permission.denied_by) lines.push(`${INDENT}${INDENT}denied by ${source}: ${entry}`);
  }
  // A list's compiled condition: which records it holds, the caller's facts filled in.
  if (check.plan?.kind === 'conditional') lines.push(`${INDENT}records: ${conditionText(check.plan.condition)}`);
  if (check.fields?.permitted) lines.push(`${INDENT}writable: ${check.fields.permitted.join(', ') || '(none)'}`);
  return lines;
}

/** A decision as an indented tree: the request, each gate with its detail, and the verdict. */
export function decisionTree(decision: Decision): string {
  const { request, user } = decision;
  const head = `${request.method} ${request.route} as ${user.email} (${user.role})`;
  const verdict = decision.allowed ? `allowed (${decision.status})` : `refused at ${decision.gate} (${decision.status})`;
  return [head, ...decision.checks.flatMap(checkLines).map((line) => `${INDENT}${line}`), verdict].join('\n');
}
