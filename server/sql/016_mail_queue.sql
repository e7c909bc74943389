-- The transactional outbox of the mail the service owes. An invitation's mail is queued in the
-- transaction that writes the invitation, and a password reset request is queued before the
-- answer: a process that dies after answering no longer loses the mail. A worker in every
-- instance claims due rows (FOR UPDATE SKIP LOCKED, so instances share the work without sending
-- twice), hands them to the configured mailer, and deletes each once sent; a failed delivery is
-- tried again later, with a growing delay, up to a limit (then failed_at is set and it stays
-- for the operator to see).
--
-- kind 'message': recipient, subject and body are the mail itself.
-- kind 'password_reset': a reset link asked for `recipient`. The worker looks the user up, and
--   in one transaction writes the password_resets row and turns this row into its message (an
--   unknown address: the row is deleted). The request never looks the user up, so its answer
--   tells nothing, not even by its timing.
CREATE TABLE mail_queue (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('message', 'password_reset')),
  recipient text NOT NULL,
  subject text,
  body text,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (kind <> 'message' OR (subject IS NOT NULL AND body IS NOT NULL))
);
CREATE INDEX mail_queue_due_idx ON mail_queue (next_attempt_at) WHERE failed_at IS NULL;

-- Service-wide, like rate_limits: no tenant owns a queued mail; analysts get nothing.
ALTER TABLE mail_queue ENABLE ROW LEVEL SECURITY;
ALTER TABLE mail_queue FORCE ROW LEVEL SECURITY;
CREATE POLICY app_all ON mail_queue FOR ALL TO gatehouse_app USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON mail_queue TO gatehouse_app;
