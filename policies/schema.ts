import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Schema, Timestamp } from '../server/index.js';

export interface PostsTable {
  id: Generated<number>;
  organization_id: number;
  title: string;
  body: string | null;
  status: ColumnType<string, string | undefined, string>;
  internal_notes: string | null;
  author_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface CommentsTable {
  id: Generated<number>;
  /** Filled by a trigger from the parent post; any value given is overwritten. */
  organization_id: ColumnType<number, number | undefined, number>;
  post_id: number;
  body: string;
  author_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The core's tables and the demo application's (policies/migrations). */
export interface DemoSchema extends Schema {
  posts: PostsTable;
  comments: CommentsTable;
}
