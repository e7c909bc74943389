import { z } from 'zod';
import { defineModel, fields } from '../../server/index.js';

export const organizations = defineModel({
  slug: 'organizations',
  tenantOwned: false,
  attributes: { name: 'string', slug: 'string', created_at: 'timestamp', updated_at: 'timestamp' },
  fillable: ['name'],
  filters: ['slug'],
  sorts: ['name', 'created_at'],
  search: ['name', 'slug'],
  // Every organization is readable to the service (slugs are looked up before login); inside a
  // tenant the caller sees only the current one.
  recordScope: (query, { organizationId }) => (organizationId === null ? query : query.where('id', '=', organizationId)),
  validation: { create: z.object({ name: fields.text('name') }) },
});
