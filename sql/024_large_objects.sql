-- PostgreSQL checks no privilege to create a large object: every login of the database could
-- call lo_create, lo_creat or lo_from_bytea (psql's \lo_import too), analysts included, and
-- store data that outlives its session, owned by it, as much as the disk holds. Gatehouse uses
-- no large object. Closing the three functions that create one leaves an analyst none to write:
-- reading or writing an existing large object needs its owner's grant.
--
-- Only a superuser may revoke the privilege on functions of pg_catalog, which the bootstrap
-- superuser owns; an owner that is no superuser is told what to run instead.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    REVOKE EXECUTE ON FUNCTION pg_catalog.lo_create(oid), pg_catalog.lo_creat(integer), pg_catalog.lo_from_bytea(oid, bytea) FROM PUBLIC;
  ELSE
    RAISE WARNING 'logins of database % may still create large objects: a superuser should run REVOKE EXECUTE ON FUNCTION pg_catalog.lo_create(oid), pg_catalog.lo_creat(integer), pg_catalog.lo_from_bytea(oid, bytea) FROM PUBLIC there', current_database();
  END IF;
END
$$;
