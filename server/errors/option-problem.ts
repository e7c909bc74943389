import type { z } from 'zod';

// Zod leaves the rejected value out of its issues.
const valueAt = (value: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((at, key) => (typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined), value);

/**
 * The first problem of a rejected options object, as one line naming the option: its dotted
 * path, and what is wrong with it in words a config's author reads (an unknown key, a missing
 * one, a wrong value).
 */
export function optionProblem(error: z.ZodError, options: unknown): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') return `unknown option ${issue.keys.map((key) => [...path, key].join('.')).join(', ')}`;
  const name = path.join('.');
  if (issue.code === 'invalid_type' && name !== '' && valueAt(options, issue.path) === undefined) return `${name} is required`;
  return name === '' ? issue.message : `${name}: ${issue.message}`;
}
