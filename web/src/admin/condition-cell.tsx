import { formatPermission } from '@gatehouse/engine';
import { POLICY_ACTIONS } from '@gatehouse/engine/wire';
import { useState } from 'react';
import { conditionedOn } from './permission-lists.js';

interface ConditionCellProps {
  resource: string;
  /** The record conditions the model's policy declares. */
  conditions: readonly string[];
  actions: readonly string[];
  permissions: string[];
  holds: (permission: string) => boolean;
  onToggle: (permission: string, on: boolean) => void;
}

/**
 * A model's conditioned permissions (`posts.update:own`: update only the records the policy's
 * `own` condition matches): the ones the list holds, each removable, and a picker to add one.
 */
export function ConditionCell({ resource, conditions, actions: all, permissions, holds, onToggle }: ConditionCellProps) {
  // A record to be created has nothing to match yet, so a condition on it would grant nothing.
  const actions = all.filter((name) => name !== POLICY_ACTIONS.create);
  const [action, setAction] = useState(actions[0] ?? '');
  const [condition, setCondition] = useState(conditions[0] ?? '');
  if (conditions.length === 0) return <td className="cell cell-absent" />;
  const picked = formatPermission({ slug: resource, action, condition });
  const held = holds(picked);
  return (
    <td className="cell conditions">
      <span className="chips">
        {conditionedOn(permissions, resource).map((permission) => (
          <span key={permission} className="chip">
            <code>{permission}</code>
            <button type="button" className="chip-remove" aria-label={`Remove ${permission}`} disabled={!holds(permission)} onClick={() => onToggle(permission, false)}>
              ×
            </button>
          </span>
        ))}
      </span>
      <span className="picker-add">
        <select aria-label={`${resource}: action on some records`} value={action} onChange={(event) => setAction(event.target.value)}>
          {actions.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <select aria-label={`${resource}: condition`} value={condition} onChange={(event) => setCondition(event.target.value)}>
          {conditions.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button-small"
          title={held ? picked : `You do not hold ${picked}`}
          disabled={!held || permissions.includes(picked)}
          onClick={() => onToggle(picked, true)}
        >
          Add {picked}
        </button>
      </span>
    </td>
  );
}
