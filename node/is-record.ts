/** An object with named fields: not null, not a list. What an answer's body and an options argument must be. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
