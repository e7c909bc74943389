import { z } from 'zod';
import { defineModel, fields, type ModelOptions } from '../../server/index.js';

const STATUSES = ['draft', 'published', 'archived'] as const;

const optionalText = (field: string) =>
  z
    .string({ error: `The ${field} field must be a string.` })
    .max(10_000, `The ${field} field must not be longer than 10000 characters.`)
    .nullable()
    .optional();

/** The registration, also the base of `npm run bench -- record-rules`'s posts with a hand-written scope. */
export const postOptions = {
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
    byAuthor: { argument: 'integer', apply: (query, _context, authorId) => query.where('author_id', '=', authorId) },
  },
  softDeletes: true,
  audit: true,
  computed: {
    total: { fn: 'count' },
    published: { fn: 'count', where: { status: 'published' } },
    drafts: { fn: 'count', where: { status: 'draft' } },
  },
  computedAttributes: {
    excerpt: { type: 'string', uses: ['body'], compute: (post) => (typeof post.body === 'string' ? post.body.slice(0, 80) : null) },
    has_internal_notes: { type: 'boolean', uses: ['internal_notes'], compute: (post) => typeof post.internal_notes === 'string' && post.internal_notes !== '' },
  },
  validation: {
    create: z.object({
      title: fields.text('title'),
      body: optionalText('body'),
      status: z.enum(STATUSES, { error: `The status field must be one of: ${STATUSES.join(', ')}.` }).optional(),
      internal_notes: optionalText('internal notes'),
    }),
  },
} satisfies ModelOptions;

export const posts = defineModel(postOptions);
