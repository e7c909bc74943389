-- An analyst login had no connection limit: one analyst (a BI tool's pool, a script) could open
-- connections until PostgreSQL refused every other login but superusers, the service's included,
-- and every request needing a new connection failed. `gatehouse analyst grant` now limits a login
-- to 10 (ANALYST_CONNECTION_LIMIT in server/db/logins/analyst-access.ts); this gives the analysts
-- granted before it the same. A limit an operator chose stays (ALTER ROLE ... CONNECTION LIMIT).
--
-- Changing a role takes a superuser, or CREATEROLE with the ADMIN option on it (the owner that
-- created the analyst has it); an owner without it is told what to run instead.
DO $$
DECLARE
  analyst name;
BEGIN
  FOR analyst IN
    SELECT DISTINCT r.rolname FROM analyst_grants a JOIN pg_roles r ON r.rolname = a.role_name WHERE r.rolconnlimit = -1
  LOOP
    BEGIN
      EXECUTE format('ALTER ROLE %I CONNECTION LIMIT 10', analyst);
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE WARNING 'analyst % may still take every connection slot of the cluster: a superuser should run ALTER ROLE % CONNECTION LIMIT 10', analyst, quote_ident(analyst);
    END;
  END LOOP;
END
$$;
