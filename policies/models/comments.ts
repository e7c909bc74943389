import { z } from 'zod';
import { defineModel, fields } from '../../server/index.js';

export const comments = defineModel({
  slug: 'comments',
  tenantOwned: true,
  owner: { model: 'posts', foreignKey: 'post_id' },
  attributes: {
    organization_id: 'integer',
    post_id: 'integer',
    body: 'string',
    author_id: 'integer',
    created_at: 'timestamp',
    updated_at: 'timestamp',
  },
  fillable: ['post_id', 'body'],
  authorColumn: 'author_id',
  filters: ['post_id', 'author_id'],
  sorts: ['created_at'],
  search: ['body'],
  relations: {
    author: { kind: 'belongsTo', model: 'users', foreignKey: 'author_id' },
    post: { kind: 'belongsTo', model: 'posts', foreignKey: 'post_id' },
  },
  computed: { total: { fn: 'count' } },
  validation: {
    create: z.object({
      post_id: fields.id('post_id'),
      body: fields.text('body', 10_000),
    }),
  },
});
