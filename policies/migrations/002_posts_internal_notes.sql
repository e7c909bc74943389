-- DESIGN.md 6: viewers never see a post's internal notes through the API; analysts never read
-- them in the database either.
SELECT gatehouse.enable_tenant_table('posts', analyst_hidden => ARRAY['internal_notes']);
