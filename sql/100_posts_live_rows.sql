-- Data endpoints read the live rows of one organization: pages in the default order (the key)
-- and their totals. This index serves both; once vacuumed, totals come from the index alone.
CREATE INDEX posts_organization_id_live_idx ON posts (organization_id, id) WHERE deleted_at IS NULL;
