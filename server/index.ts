// `gatehouse/server`: build the service into another Node application, with its own route
// groups, data routes (models and policies) and mailer.
export { createServer, type GatehouseServer, type ListenOptions } from './create-server.js';
export type { DataConfig, DataRoutesFactory, ServerConfig } from './config/server-config.js';
export type { ThrottleConfig, ThrottledAction, ThrottleRule } from './throttle/throttle-limits.js';
export {
  defineModel,
  ModelDefinitionError,
  type Aggregate,
  type AttributeType,
  type ModelDefinition,
  type ModelOptions,
  type Relation,
  type Scope,
  type ScopeContext,
} from './models/define-model.js';
// zod field schemas whose messages read like the rest of the API's ("The title field is required.").
export * as fields from './models/fields.js';
export { ConfigError } from './errors/config-error.js';
export type { RouteGroup, RouteGroupConfig, Tenancy } from './models/route-group.js';
export type { Mailer, MailMessage } from './mail/mailer.js';
export type {
  Authentication,
  Authorization,
  AuthUser,
  CurrentOrganization,
  DataState,
  GatehouseContext,
  GatehouseMiddleware,
  GatehouseState,
  GroupState,
  MemberState,
  RequestState,
  SignedInState,
  TenantMemberState,
} from './http/state.js';
export { policyContext } from './permissions/policy-context.js';
export { assertCan, authorize } from './permissions/authorize.js';
export { generateTokenKeyPair } from './auth/token-keys.js';
export { HttpError } from './http/http-error.js';
export { NotFoundError } from './errors/not-found-error.js';
export { BadRequestError } from './errors/bad-request-error.js';
export { ValidationError, type FieldErrors } from './errors/validation-error.js';
export { validate } from './http/validate.js';
export { readQuery } from './http/query-string.js';
// Migrations, seeds and scripts of an application built on Gatehouse.
export { migrate, type MigrateOptions } from './db/migrations/migrations.js';
export { ChangedMigrationError } from './db/migrations/changed-migration-error.js';
export { FailedMigrationError } from './db/migrations/failed-migration-error.js';
export { MigrationsFolderError } from './db/migrations/migrations-folder-error.js';
export { openDatabase, type Database, type DatabaseOptions } from './db/connection/database.js';
export { withTenant, type TenantContext, type TenantTransaction } from './db/transactions/tenant-transaction.js';
export type { NullableTimestamp, Schema, Timestamp } from './db/schema.js';
export { hashPassword } from './auth/password.js';
export { defineConfig, type GatehouseConfig } from './config/gatehouse-config.js';
