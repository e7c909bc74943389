-- Readiness (`/api/ready`, `gatehouse serve`) asks, as gatehouse_app, whether every migration is
-- applied. The bookkeeping table stays out of the service's reach (004); only the names of the
-- applied migrations are readable, through this function.
CREATE FUNCTION gatehouse_applied_migrations() RETURNS SETOF text
  LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = pg_catalog, public, pg_temp
  AS $$ SELECT name FROM public.gatehouse_migrations $$;
GRANT EXECUTE ON FUNCTION gatehouse_applied_migrations() TO gatehouse_app;
