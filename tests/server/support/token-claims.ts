/** The claims of a v4.public token: its payload is the JSON message followed by a 64-byte signature. */
export function tokenClaims(token: string): Record<string, string | null> {
  const payload = token.split('.')[2] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').subarray(0, -64).toString('utf8'));
}

/** RFC 3339 without fractions, as PASETO claims carry instants. */
export const instant = (date: Date) => date.toISOString().replace(/\.\d+Z$/, 'Z');
