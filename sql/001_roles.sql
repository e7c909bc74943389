-- Cluster-wide roles. The migrating role owns every object; the service runs as
-- gatehouse_app, which owns nothing and cannot bypass row-level security.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'gatehouse_app') THEN
    CREATE ROLE gatehouse_app NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'gatehouse_analyst') THEN
    CREATE ROLE gatehouse_analyst NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
  END IF;
END
$$;

-- A non-superuser owner must be a member to SET ROLE gatehouse_app on its pooled connections.
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT gatehouse_app TO %I', current_user);
  END IF;
END
$$;

REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO gatehouse_app, gatehouse_analyst;
