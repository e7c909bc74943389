import type { ComponentType } from 'react';
import type { AdminSection } from '../routes.js';
import { AuditPage } from './audit-page.js';
import { DecisionsPage } from './decisions-page.js';
import { InvitationsPage } from './invitations-page.js';
import { MembersPage } from './members-page.js';
import { RolesPage } from './roles-page.js';

const PAGES: Record<AdminSection, ComponentType> = {
  members: MembersPage,
  roles: RolesPage,
  invitations: InvitationsPage,
  audit: AuditPage,
  decisions: DecisionsPage,
};

/**
 * One page of the administration console. A page the member may not use is still reachable by
 * its URL: its first request answers 403, and the page shows that refusal and its reason.
 */
export function AdminPage({ section }: { section: AdminSection }) {
  const Page = PAGES[section];
  return <Page />;
}
