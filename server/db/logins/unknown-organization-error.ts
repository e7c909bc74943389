export class UnknownOrganizationError extends Error {
  constructor(readonly slug: string) {
    super(`No organization has the slug "${slug}".`);
    this.name = 'UnknownOrganizationError';
  }
}
