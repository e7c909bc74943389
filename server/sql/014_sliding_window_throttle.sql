-- The throttle's fixed windows let a burst of twice a limit through across a window boundary
-- (the limit at the end of one window, the limit again at the start of the next). Each key now
-- keeps the times of the attempts it admitted within the last window_seconds: an attempt is
-- admitted while fewer than max_attempts fall in the window that ends with it, so no span of
-- window_seconds ever holds more than max_attempts. Refused attempts are not kept, so a row
-- holds at most max_attempts times however hard a key is hammered.
-- The counters are short-lived: the old ones are dropped with the old table.
DROP TABLE rate_limits;
CREATE TABLE rate_limits (
  key text PRIMARY KEY CHECK (key ~ '^[0-9a-f]{64}$'),
  attempts timestamptz[] NOT NULL,
  window_seconds integer NOT NULL CHECK (window_seconds > 0),
  max_attempts integer NOT NULL CHECK (max_attempts > 0),
  -- The outcome of the latest attempt, read back by the statement that counted it.
  refused boolean NOT NULL DEFAULT false,
  -- When the newest admitted attempt leaves the window: the row is swept after that.
  expires_at timestamptz NOT NULL
);
CREATE INDEX rate_limits_expires_at_idx ON rate_limits (expires_at);

ALTER TABLE rate_limits ENABLE ROW LEVEL SECURITY;
ALTER TABLE rate_limits FORCE ROW LEVEL SECURITY;
CREATE POLICY app_all ON rate_limits FOR ALL TO gatehouse_app USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON rate_limits TO gatehouse_app;
