-- Requests that claim a value unique across every tenant (an organization's slug, an account's
-- email) take turns on a row here before they check that the value is free, so one that loses a
-- race is refused before its insert draws an id from a sequence all tenants share. A row of a
-- table only the service may change, not an advisory lock, which any login (an analyst) may take
-- and hold; nor a lock of the claimed table itself, which maintenance and operators' bulk writes
-- would share with them.
CREATE TABLE claim_turns (
  name text PRIMARY KEY CHECK (name ~ '^[a-z_]+\.[a-z_]+$')
);
INSERT INTO claim_turns (name) VALUES ('organizations.slug'), ('users.email');

-- Service-wide, like rate_limits: RLS forced as on every table the service writes; analysts get nothing.
ALTER TABLE claim_turns ENABLE ROW LEVEL SECURITY;
ALTER TABLE claim_turns FORCE ROW LEVEL SECURITY;
CREATE POLICY app_all ON claim_turns FOR ALL TO gatehouse_app USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE ON claim_turns TO gatehouse_app;
