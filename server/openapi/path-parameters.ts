import type { JsonSchema } from '../routes/route-definition.js';

/** `/:organization/invitations/:id` → `/{organization}/invitations/{id}`. */
export const template = (path: string) => path.replace(/:([a-z_]+)/gi, '{$1}');

/** The parameters a templated path names, in order. */
export function pathParameters(path: string): JsonSchema[] {
  return [...path.matchAll(/\{([a-z_]+)\}/gi)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: name === 'organization' ? 'The organization slug.' : name === 'id' ? 'The record id.' : undefined,
    schema: name === 'id' ? { type: 'integer', minimum: 1 } : { type: 'string' },
  }));
}
