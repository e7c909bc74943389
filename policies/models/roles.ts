import { defineModel } from '../../server/index.js';

/** Roles are fixed by migrations (the service role cannot write them); the API only lists them. */
export const roles = defineModel({
  slug: 'roles',
  tenantOwned: false,
  attributes: { name: 'string', slug: 'string', created_at: 'timestamp' },
  fillable: [],
  filters: ['slug'],
  sorts: ['name'],
});
