-- Issue 28, finding 3: changes to users are audited. A user row belongs to no organization, so
-- its audit rows carry none. The service writes such a row only as the user who acts, and reads
-- them only outside any organization (a non-tenant route group), where a user's history is
-- read; no tenant sees another's, and analysts, granted per organization, see none.
ALTER TABLE audit_logs ALTER COLUMN organization_id DROP NOT NULL;

DROP POLICY app_tenant ON audit_logs;
CREATE POLICY app_tenant ON audit_logs FOR ALL TO gatehouse_app
  USING (organization_id = gatehouse_organization_id()
    OR (organization_id IS NULL AND gatehouse_organization_id() IS NULL))
  WITH CHECK (organization_id = gatehouse_organization_id()
    OR (organization_id IS NULL AND user_id = gatehouse_user_id()));
