/** The connection string a login role uses: the owner's server and database, its own name. */
export function roleUrl(ownerConnectionString: string, role: string, password?: string): string {
  const url = new URL(ownerConnectionString);
  url.username = role;
  url.password = password ?? '';
  return url.toString();
}
