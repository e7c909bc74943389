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
export const MEMBERSHIP_FACTS = ['role_id', 'granted_permissions', 'denied_permissions'] as const;

export function membershipFacts(member: MemberDetails): Pick<MemberDetails, (typeof MEMBERSHIP_FACTS)[number]> {
  return Object.fromEntries(MEMBERSHIP_FACTS.map((fact) => [fact, member[fact]])) as Pick<MemberDetails, (typeof MEMBERSHIP_FACTS)[number]>;
}
