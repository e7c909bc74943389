-- The demo application's tables (DESIGN.md 6). Databases migrated before the demo left the core
-- already have them from the core's old 002-005 and 100: every statement here is written to
-- leave such a database as it is (IF NOT EXISTS, OR REPLACE), so it only records itself there.
CREATE TABLE IF NOT EXISTS posts (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations ON DELETE CASCADE,
  title text NOT NULL,
  body text,
  status text NOT NULL DEFAULT 'draft',
  internal_notes text,
  author_id integer REFERENCES users ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  UNIQUE (organization_id, id)
);
CREATE INDEX IF NOT EXISTS posts_organization_id_created_at_idx ON posts (organization_id, created_at, id);
-- Data endpoints read the live rows of one organization: pages in the default order (the key)
-- and their totals. This index serves both; once vacuumed, totals come from the index alone.
CREATE INDEX IF NOT EXISTS posts_organization_id_live_idx ON posts (organization_id, id) WHERE deleted_at IS NULL;
-- Deleting a user sets author_id to NULL; without an index each delete scans the table.
CREATE INDEX IF NOT EXISTS posts_author_id_idx ON posts (author_id) WHERE author_id IS NOT NULL;
CREATE OR REPLACE TRIGGER posts_touch BEFORE UPDATE ON posts FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
SELECT gatehouse.enable_tenant_table('posts');

CREATE TABLE IF NOT EXISTS comments (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id integer NOT NULL,
  post_id integer NOT NULL,
  body text NOT NULL,
  author_id integer REFERENCES users ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- The composite key pins a comment to its post's organization.
  FOREIGN KEY (organization_id, post_id) REFERENCES posts (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS comments_organization_id_post_id_idx ON comments (organization_id, post_id, id);
CREATE INDEX IF NOT EXISTS comments_author_id_idx ON comments (author_id) WHERE author_id IS NOT NULL;
CREATE OR REPLACE TRIGGER comments_touch BEFORE UPDATE ON comments FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
-- Replaces the old core's trigger of the same name, whose function goes with it.
SELECT gatehouse.enable_child_table('comments', 'posts', 'post_id');
DROP FUNCTION IF EXISTS comments_inherit_organization();
