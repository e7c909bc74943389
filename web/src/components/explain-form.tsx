import { STANDARD_ACTIONS, type StandardAction } from '@gatehouse/engine/wire';
import { useAbility, useExplain, useMembers, type ExplainRequest } from '@gatehouse/client';
import { useState, type FormEvent } from 'react';
import { DecisionTree } from './decision-tree.js';
import { ErrorNotice } from './status.js';
import { RECORD_ACTIONS } from '../admin/explainable-decision.js';

const MODELS = ['posts', 'comments', 'users'];

/** Members to explain for, for a caller who may explain others' requests (`decisions.explain`). */
function MemberPicker({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const members = useMembers();
  return (
    <label>
      Member
      <select aria-label="Member" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">Me</option>
        {(members.data ?? []).map((member) => (
          <option key={member.id} value={member.id}>
            {member.email}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Asks the server why a request would be allowed or refused, and shows its decision tree. */
export function ExplainForm() {
  const explain = useExplain();
  const mayExplainOthers = useAbility().can('explain', 'decisions');
  const [model, setModel] = useState(MODELS[0]!);
  const [action, setAction] = useState<StandardAction>('destroy');
  const [id, setId] = useState('');
  const [member, setMember] = useState('');
  const needsRecord = RECORD_ACTIONS.includes(action);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request: ExplainRequest = { model, action, ...(needsRecord && id !== '' ? { id } : {}), ...(member === '' ? {} : { userId: Number(member) }) };
    explain.mutate(request);
  };
  return (
    <section aria-label="Explain">
      <h2>Why? Explain a request</h2>
      <form className="form-inline" onSubmit={submit}>
        {mayExplainOthers && <MemberPicker value={member} onChange={setMember} />}
        <label>
          Model
          <select aria-label="Model" value={model} onChange={(event) => setModel(event.target.value)}>
            {MODELS.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <label>
          Action
          <select aria-label="Action" value={action} onChange={(event) => setAction(event.target.value as StandardAction)}>
            {STANDARD_ACTIONS.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        {needsRecord && (
          <label>
            Record id
            <input aria-label="Record id" inputMode="numeric" value={id} onChange={(event) => setId(event.target.value)} size={6} />
          </label>
        )}
        <button type="submit" className="button" disabled={explain.isPending}>
          Explain
        </button>
      </form>
      {explain.error && <ErrorNotice error={explain.error} />}
      {explain.data && <DecisionTree decision={explain.data} />}
    </section>
  );
}
