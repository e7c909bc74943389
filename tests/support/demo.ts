import { DEMO_ORGANIZATIONS, DEMO_USERS } from '../../policies/seed.js';
import { queryOnce } from './query.js';

export type DemoSlug = (typeof DEMO_ORGANIZATIONS)[number]['slug'];

export async function demoOrganizationIds(ownerUrl: string): Promise<Record<DemoSlug, number>> {
  const rows = await queryOnce<{ id: number; slug: DemoSlug }>(ownerUrl, "SELECT id, slug FROM organizations WHERE slug IN ('acme', 'globex')");
  const id = (slug: DemoSlug) => rows.find((row) => row.slug === slug)?.id ?? Number.NaN;
  return { acme: id('acme'), globex: id('globex') };
}

/** The seeded post titles of one demo organization, sorted. */
export function demoPostTitles(slug: DemoSlug): string[] {
  return (DEMO_ORGANIZATIONS.find((organization) => organization.slug === slug)?.posts ?? []).map((post) => post.title).sort();
}

/** The emails of one demo organization's members, sorted. */
export function demoMemberEmails(slug: DemoSlug): string[] {
  return DEMO_USERS.filter((user) => user.organization === slug).map((user) => user.email).sort();
}
