-- Read your writes with read replicas: after a request of a session writes, the service keeps
-- the primary's WAL position here, and reads that session's requests from a replica only once it
-- has replayed that position (docs/operations/replicas.md). Null: the session never wrote, or
-- no replica is configured.
ALTER TABLE sessions ADD COLUMN write_lsn pg_lsn;
