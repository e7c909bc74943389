-- The role a new organization's creator receives (the server's default `ownerRole`). Every
-- deployment needs it, not only the demo: without it creating an organization fails on a
-- database migrated with the core alone. A database that already has it keeps its own row.
INSERT INTO roles (name, slug) VALUES ('Owner', 'owner') ON CONFLICT (slug) DO NOTHING;
