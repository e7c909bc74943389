-- Attempt counters of the throttle (login, register, password recover and reset, invitation
-- sends), kept here so every instance of the service counts against the same limits. A key is
-- the SHA-256 of the action and the email or client address it counts, never the address itself.
-- A fixed window: the first attempt after resets_at starts a new one.
CREATE TABLE rate_limits (
  key text PRIMARY KEY CHECK (key ~ '^[0-9a-f]{64}$'),
  hits integer NOT NULL CHECK (hits >= 0),
  resets_at timestamptz NOT NULL
);
-- Expired windows are swept by resets_at.
CREATE INDEX rate_limits_resets_at_idx ON rate_limits (resets_at);

-- Service-wide, like sessions: no tenant owns a counter. RLS is forced all the same so the table
-- follows the rule every other table the service writes follows; analysts get nothing.
ALTER TABLE rate_limits ENABLE ROW LEVEL SECURITY;
ALTER TABLE rate_limits FORCE ROW LEVEL SECURITY;
CREATE POLICY app_all ON rate_limits FOR ALL TO gatehouse_app USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON rate_limits TO gatehouse_app;
