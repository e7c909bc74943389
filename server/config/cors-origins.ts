import { ConfigError } from './config-error.js';

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
