/** Raised instead of sending a request whose URL needs an organization when none is selected. */
export class OrganizationRequiredError extends Error {
  constructor() {
    super('No organization is selected: call useAuth().setOrganization(slug) first.');
    this.name = 'OrganizationRequiredError';
  }
}

export function requireBase(base: string | null): string {
  if (base === null) throw new OrganizationRequiredError();
  return base;
}
