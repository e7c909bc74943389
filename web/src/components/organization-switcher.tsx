import { useAuth, useOrganization, useOrganizationExists, useOwner } from '@gatehouse/client';
import { useState, type FormEvent } from 'react';

/** The selected organization, and a slug field to switch to another one the user belongs to. */
export function OrganizationSwitcher() {
  const { setOrganization } = useAuth();
  const current = useOrganization();
  const owner = useOwner();
  const [slug, setSlug] = useState('');
  const existence = useOrganizationExists(slug);
  const canSwitch = existence.organization !== null && !existence.isLoading;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSwitch) return;
    void setOrganization(existence.organization!.slug);
    setSlug('');
  };

  const hint = !slug.trim()
    ? null
    : existence.isLoading
      ? 'Checking…'
      : canSwitch
        ? `Switch to ${existence.organization!.name}`
        : existence.exists
          ? 'You are not a member of it'
          : 'No such organization';

  return (
    <form className="org-switcher" onSubmit={submit}>
      <span className="org-current" title={current ?? undefined}>
        {current === null ? 'No organization' : (owner.data?.name ?? current)}
      </span>
      <input
        aria-label="Organization slug"
        placeholder="switch to…"
        value={slug}
        onChange={(event) => setSlug(event.target.value)}
        size={10}
      />
      <button type="submit" className="button button-small" disabled={!canSwitch}>
        Switch
      </button>
      {hint && <span className="org-hint">{hint}</span>}
    </form>
  );
}
