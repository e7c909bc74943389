import { z } from 'zod';
import { defineModel } from '../../server/models/define-model.js';

const optionalText = z.string().max(10_000).nullable().optional();

export const posts = defineModel({
  slug: 'posts',
  tenantOwned: true,
  attributes: {
    organization_id: 'integer',
    title: 'string',
    body: 'string',
    status: 'string',
    internal_notes: 'string',
    author_id: 'integer',
    created_at: 'timestamp',
    updated_at: 'timestamp',
    deleted_at: 'timestamp',
  },
  fillable: ['title', 'body', 'status', 'internal_notes'],
  authorColumn: 'author_id',
  filters: ['status', 'author_id'],
  sorts: ['created_at', 'title'],
  search: ['title', 'body'],
  relations: {
    author: { kind: 'belongsTo', model: 'users', foreignKey: 'author_id' },
    comments: { kind: 'hasMany', model: 'comments', foreignKey: 'post_id' },
  },
  scopes: {
    published: (query) => query.where('status', '=', 'published'),
    drafts: (query) => query.where('status', '=', 'draft'),
  },
  softDeletes: true,
  audit: true,
  computed: {
    total: { fn: 'count' },
    published: { fn: 'count', where: { status: 'published' } },
    drafts: { fn: 'count', where: { status: 'draft' } },
  },
  validation: {
    create: z.object({
      title: z.string().trim().min(1, 'The title field is required.').max(200),
      body: optionalText,
      status: z.enum(['draft', 'published', 'archived']).optional(),
      internal_notes: optionalText,
    }),
  },
});
