/**
 * The URL of every ES module a Node process loaded, from Node's own debug log of its module map
 * (`NODE_DEBUG=esm` writes one "Storing <url>" line per module to stderr).
 */
export const loadedModules = (stderr: string) => [...stderr.matchAll(/^ESM \d+: Storing (\S+) /gm)].map((match) => match[1]!);
