function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * True when a failure means the database lacks Gatehouse's schema: an undefined table (42P01) or
 * function (42883), or no gatehouse_app role to switch to on connecting (22023: `invalid value
 * for parameter "role"`, or `role "gatehouse_app" does not exist` on a cluster never migrated).
 * The service's queries are fixed, so these never come from a caller's input.
 */
export function isSchemaMissing(error: unknown): boolean {
  const code = codeOf(error);
  if (code === '42P01' || code === '42883') return true;
  return code === '22023' && error instanceof Error && /"role"|^role "gatehouse_app" does not exist/.test(error.message);
}
