/** A connection string safe to print: the password, if any, replaced by asterisks. */
export function maskedUrl(connectionString: string): string {
  const url = new URL(connectionString);
  if (url.password !== '') url.password = '****';
  return url.toString();
}
