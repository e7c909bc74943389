import type { ColumnType, Generated } from 'kysely';

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Permissions = ColumnType<string[], string[] | undefined, string[]>;
type Json = ColumnType<unknown, string | null | undefined, string | null>;

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  slug: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string;
  permissions: Permissions;
  granted_permissions: Permissions;
  denied_permissions: Permissions;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  slug: string;
  created_at: Timestamp;
}

export interface UserRolesTable {
  id: Generated<number>;
  user_id: number;
  organization_id: number | null;
  role_id: number;
  route_group: string | null;
  granted_permissions: Permissions;
  denied_permissions: Permissions;
  created_at: Timestamp;
}

export interface OrgRolePermissionsTable {
  organization_id: number;
  role_id: number;
  permissions: Permissions;
}

export interface InvitationsTable {
  id: Generated<number>;
  organization_id: number;
  email: string;
  role_id: number;
  route_group: string | null;
  token_hash: string;
  status: ColumnType<'pending' | 'accepted' | 'cancelled', 'pending' | 'accepted' | 'cancelled' | undefined>;
  invited_by: number | null;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: number;
  route_group: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  body: string;
  created_at: Timestamp;
}

export interface GlobalAuditLogsTable {
  id: Generated<string>;
  model: string;
  record_id: string;
  action: string;
  old_values: Json;
  new_values: Json;
  user_id: number | null;
  created_at: Timestamp;
}

/** An organization's audit trail; models no organization owns keep theirs in global_audit_logs. */
export interface AuditLogsTable extends GlobalAuditLogsTable {
  organization_id: number;
}

export interface DecisionLogsTable {
  /** bigint, read as a string. */
  id: Generated<string>;
  organization_id: number;
  request_id: string;
  user_id: number | null;
  route_group: string | null;
  method: string;
  route: string;
  status: number;
  gate: string;
  permission: string | null;
  policy: string | null;
  source: Generated<string>;
  service: string | null;
  model: string | null;
  action: string | null;
  record_id: string | null;
  created_at: Generated<Date>;
}

export interface ServiceResourcesTable {
  resource: string;
  service: string;
  actions: string[];
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface MailQueueTable {
  id: Generated<string>;
  kind: 'message' | 'password_reset';
  recipient: string;
  subject: string | null;
  body: string | null;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  failed_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  attempts: Date[];
  window_seconds: number;
  max_attempts: number;
  refused: Generated<boolean>;
  expires_at: Timestamp;
}

export interface Schema {
  organizations: OrganizationsTable;
  users: UsersTable;
  roles: RolesTable;
  user_roles: UserRolesTable;
  org_role_permissions: OrgRolePermissionsTable;
  invitations: InvitationsTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  mail_outbox: MailOutboxTable;
  audit_logs: AuditLogsTable;
  global_audit_logs: GlobalAuditLogsTable;
  decision_logs: DecisionLogsTable;
  service_resources: ServiceResourcesTable;
  rate_limits: RateLimitsTable;
  mail_queue: MailQueueTable;
}
