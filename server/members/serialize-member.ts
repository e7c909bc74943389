import type { MemberDetails } from '../db/repositories/members.js';

/** A member as `{t}/members` shows it: the user, the role and the per-user lists. */
export function serializeMember(member: MemberDetails) {
  return {
    id: member.id,
    name: member.name,
    email: member.email,
    role: { id: member.role_id, name: member.role_name, slug: member.role_slug },
    granted_permissions: member.granted_permissions,
    denied_permissions: member.denied_permissions,
  };
}

/** What the audit trail records of a membership. */
export function membershipFacts(member: MemberDetails) {
  return { role_id: member.role_id, granted_permissions: member.granted_permissions, denied_permissions: member.denied_permissions };
}
