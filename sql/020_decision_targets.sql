-- What a refusal was about, so the console can explain it again: the model, the action and the
-- record id of a data request (null elsewhere), and where the refusal came from: a request the
-- service refused itself, or a check another service asked through `POST {t}/authorize`, with
-- that service's name. The record id is the path's own segment: a member who reads the log
-- already may read the organization's refusals, and the id names no other organization's row.
ALTER TABLE decision_logs
  ADD COLUMN source text NOT NULL DEFAULT 'request' CHECK (source IN ('request', 'authorize')),
  ADD COLUMN service text CHECK (length(service) <= 64),
  ADD COLUMN model text CHECK (length(model) <= 64),
  ADD COLUMN action text CHECK (length(action) <= 64),
  ADD COLUMN record_id text CHECK (length(record_id) <= 64);

-- New columns stay unreadable to analysts until the table is exposed again (fail closed).
SELECT gatehouse.expose_to_analysts('decision_logs');
