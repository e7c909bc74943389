-- Resources of other services (a billing service's `invoices` with `index, show, approve`),
-- registered through `PUT /api/admin/service-resources/{resource}` or `gatehouse resources
-- register`, so every instance of the service offers them in the permission catalog, the role
-- matrix, `POST {t}/authorize` and explain. Shared reference data like `roles`, not a tenant
-- table: a resource is the same in every organization, and only permissions granted per
-- organization say who may act on it.
CREATE TABLE service_resources (
  resource text PRIMARY KEY CHECK (resource ~ '^[a-z][a-z0-9_-]{0,62}$'),
  service text NOT NULL CHECK (service ~ '^[a-z][a-z0-9_-]{0,62}$'),
  actions text[] NOT NULL CHECK (cardinality(actions) BETWEEN 1 AND 50),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
GRANT SELECT, INSERT, UPDATE, DELETE ON service_resources TO gatehouse_app;
-- Analysts read them as they read role names: to make sense of permission lists.
GRANT SELECT ON service_resources TO gatehouse_analyst;
