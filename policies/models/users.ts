import { z } from 'zod';
import { defineModel, fields } from '../../server/index.js';

export const users = defineModel({
  slug: 'users',
  tenantOwned: false,
  // Only declared columns are ever serialized, so the password hash and permission lists stay in.
  attributes: { name: 'string', email: 'string', created_at: 'timestamp', updated_at: 'timestamp' },
  fillable: ['name'],
  filters: ['email'],
  sorts: ['name', 'created_at'],
  search: ['name', 'email'],
  // Users are not tenant rows; inside an organization only its members exist.
  recordScope: (query, { organizationId }) =>
    organizationId === null
      ? query
      : query.where(({ eb, selectFrom }) =>
          eb('id', 'in', selectFrom('user_roles').select('user_id').where('organization_id', '=', organizationId)),
        ),
  validation: { create: z.object({ name: fields.text('name') }) },
  // Its trail belongs to no organization: read through the non-tenant group (sql/025_global_audit_logs.sql).
  audit: true,
});
