-- Roles are cluster-wide: every login could connect to every database of the cluster, so one
-- database's service login reached the others' (and, being a member of gatehouse_app, their
-- rows). CONNECT now goes to this database's own logins only: the service logins that
-- `gatehouse app-login` and `gatehouse start` provision here, and the analysts granted an
-- organization here; both grant it when they run. The owner and superusers keep theirs.
DO $$
DECLARE
  analyst text;
BEGIN
  EXECUTE format('REVOKE CONNECT ON DATABASE %I FROM PUBLIC', current_database());
  FOR analyst IN SELECT DISTINCT a.role_name FROM analyst_grants a JOIN pg_roles r ON r.rolname = a.role_name LOOP
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), analyst);
  END LOOP;
END
$$;
