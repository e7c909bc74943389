import { usePermissionCatalog } from '@gatehouse/client';
import { formatPermission } from '@gatehouse/engine';
import { POLICY_ACTIONS, WILDCARD } from '@gatehouse/engine/wire';
import { useState } from 'react';
import { permissionOf, toggled } from './permission-lists.js';

interface PermissionPickerProps {
  label: string;
  value: string[];
  onChange: (next: string[]) => void;
}

/**
 * A list of permissions, added from the registered resources and actions, wildcards included,
 * and a model's record conditions (`posts.update:own`) on one action.
 */
export function PermissionPicker({ label, value, onChange }: PermissionPickerProps) {
  const catalog = usePermissionCatalog().data ?? [];
  const [resource, setResource] = useState(WILDCARD);
  const [action, setAction] = useState(WILDCARD);
  const [condition, setCondition] = useState('');
  const entry = catalog.find((candidate) => candidate.resource === resource);
  const actions = entry?.actions ?? [];
  // A condition goes on one action, never a wildcard, and means nothing on a record yet to be created.
  const conditions = action === WILDCARD || action === POLICY_ACTIONS.create ? [] : (entry?.conditions ?? []);
  const picked =
    resource === WILDCARD ? WILDCARD : conditions.includes(condition) ? formatPermission({ slug: resource, action, condition }) : permissionOf(resource, action);
  return (
    <fieldset className="picker" aria-label={label}>
      <legend>{label}</legend>
      <p className="chips">
        {value.length === 0 && <span className="muted">None.</span>}
        {value.map((permission) => (
          <span key={permission} className="chip">
            <code>{permission}</code>
            <button type="button" className="chip-remove" aria-label={`Remove ${permission} from ${label}`} onClick={() => onChange(toggled(value, permission, false))}>
              ×
            </button>
          </span>
        ))}
      </p>
      <div className="picker-add">
        <select aria-label={`${label}: resource`} value={resource} onChange={(event) => (setResource(event.target.value), setAction(WILDCARD), setCondition(''))}>
          <option value={WILDCARD}>* (everything)</option>
          {catalog.map((entry) => (
            <option key={entry.resource} value={entry.resource}>
              {entry.resource}
            </option>
          ))}
        </select>
        {resource !== WILDCARD && (
          <select aria-label={`${label}: action`} value={action} onChange={(event) => setAction(event.target.value)}>
            <option value={WILDCARD}>* (every action)</option>
            {actions.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
        {conditions.length > 0 && (
          <select aria-label={`${label}: condition`} value={condition} onChange={(event) => setCondition(event.target.value)}>
            <option value="">(every record)</option>
            {conditions.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
        <button type="button" className="button button-small" disabled={value.includes(picked)} onClick={() => onChange(toggled(value, picked, true))}>
          Add {picked}
        </button>
      </div>
    </fieldset>
  );
}
