import { ConfigError } from '../errors/config-error.js';

export interface CorsOptions {
  /** `*`, or origins such as `https://app.example.com`; `[]` none. */
  origins: readonly string[];
  /** Lets the browser send cookies and HTTP auth with cross-origin requests: listed origins only. */
  credentials: boolean;
}

// Browsers send the serialized origin; anything else (a path, a trailing slash, capitals) would never match.
function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

/** The origins browsers may call the API from: `*`, or origins such as `https://app.example.com`. */
export function corsOrigins(origins: readonly string[]): readonly string[] {
  const invalid = origins.find((origin) => origin !== '*' && !isOrigin(origin));
  if (invalid !== undefined) {
    throw new ConfigError(`corsOrigins: "${invalid}" is not an origin; write scheme://host[:port] in lower case, without a path.`);
  }
  return origins;
}

/**
 * `cors: {origins, credentials}`, with `corsOrigins` as the short form of `cors.origins`. A
 * browser refuses credentials with `*`, and reflecting any origin instead would hand every site
 * the caller's cookies: credentials need listed origins.
 */
export function resolveCors(cors: Partial<CorsOptions> = {}, shortOrigins?: readonly string[]): CorsOptions {
  if (cors.origins && shortOrigins) throw new ConfigError('Configure either cors.origins or corsOrigins, not both.');
  const origins = corsOrigins(cors.origins ?? shortOrigins ?? ['*']);
  const credentials = cors.credentials ?? false;
  if (credentials && origins.includes('*')) throw new ConfigError('cors.credentials needs listed origins, not *.');
  return { origins, credentials };
}
