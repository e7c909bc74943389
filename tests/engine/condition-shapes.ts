import { createConditionCatalog, type ModelShape, type RecordConditions } from '@gatehouse/engine';

/** Posts with an author (belongsTo) and comments (hasMany), as the record-condition tests use them. */
export const SHAPES: ModelShape[] = [
  {
    slug: 'posts',
    table: 'posts',
    attributes: { id: 'integer', title: 'string', status: 'string', author_id: 'integer', score: 'integer', pinned: 'boolean', deleted_at: 'timestamp' },
    relations: { author: { kind: 'belongsTo', model: 'users', foreignKey: 'author_id' }, comments: { kind: 'hasMany', model: 'comments', foreignKey: 'post_id' } },
  },
  { slug: 'comments', table: 'comments', attributes: { id: 'integer', post_id: 'integer', body: 'string', flagged: 'boolean' }, relations: {} },
  { slug: 'users', table: 'users', attributes: { id: 'integer', name: 'string' }, relations: {} },
];

export const POST_CONDITIONS = {
  own: { author_id: { context: 'user.id' } },
  published: { status: 'published' },
  visible: { or: [{ status: 'published' }, { author_id: { context: 'user.id' } }] },
  discussed: { comments: { some: {} } },
  clean: { comments: { every: { flagged: false } } },
  unflagged: { comments: { none: { flagged: true } } },
  authored: { author: { some: { name: { ne: 'ghost' } } } },
  unpinned: { not: { pinned: true } },
  low: { score: { lt: 10 } },
} satisfies RecordConditions;

export const catalogOf = (conditions: RecordConditions = POST_CONDITIONS) => createConditionCatalog(SHAPES, { posts: conditions });
