// Everything both entry points export; each entry point adds its platform.
export type { ApiOptions, Tenancy } from './config/api-config.js';
export { configureApi, getHttpClient } from './config/runtime.js';
export type { KeyValueStorage, AsyncKeyValueStorage } from './storage/key-value-storage.js';
export { AuthProvider, type AuthProviderProps } from './react/auth-provider.js';
export type { AuthState } from './react/gatehouse-context.js';
export type { LoginResult } from './session/auth-requests.js';
export type { SessionResponse } from './session/session-start.js';
export type { RouteGroupOption } from './session/route-group.js';
export { Can, type CanProps } from './react/can.js';
export type { GatehouseAbility, ModelAbilities, ModelAction } from './ability/gatehouse-ability.js';
export { OrganizationRequiredError } from './urls/organization-required.js';
export { DotSegmentError } from './urls/dot-segment-error.js';
export { SessionEndedError } from './session/session-ended-error.js';
export { onSessionChange, type SessionChangeListener } from './session/session-changes.js';
export type { SessionKey } from './session/session-keys.js';
export type { IndexQuery } from './urls/index-params.js';
export type { CountPreference, IndexMeta, IndexPage } from './http/index-page.js';
export { useAuth } from './hooks/use-auth.js';
export { useOrganization, useRouteGroup } from './hooks/use-session-scope.js';
export { useOwner, type Organization, type OrganizationMember, type OwnerOptions } from './hooks/use-owner.js';
export { useOrganizationExists, type OrganizationExistence } from './hooks/use-organization-exists.js';
export { useDebouncedValue } from './hooks/use-debounced-value.js';
export { useUserRole, type UserRole } from './hooks/use-user-role.js';
export { useAbility } from './hooks/use-ability.js';
export { useAuthorize } from './hooks/use-authorize.js';
export type { AuthorizeCheck, AuthorizeResult } from '@gatehouse/engine/wire';
export {
  useRegister,
  usePasswordRecover,
  useResetPassword,
  useAcceptInvitation,
  type RegisterInput,
  type PasswordRecoverInput,
  type PasswordResetInput,
  type AcceptedInvitation,
} from './hooks/use-auth-mutations.js';
export {
  useInvitations,
  useInviteUser,
  useResendInvitation,
  useCancelInvitation,
  type Invitation,
  type InviteUser,
} from './hooks/use-invitations.js';
export { useMembers, useUpdateMember, useRemoveMember, type Member, type MemberChange, type MemberRole } from './hooks/use-members.js';
export { useRoles, useRolePermissions, useUpdateRolePermissions, type RolePermissions } from './hooks/use-roles.js';
export { useAuditTrail, type AuditTrailEntry, type AuditTrailQuery } from './hooks/use-audit-trail.js';
export { usePermissionCatalog, type PermissionCatalogEntry } from './hooks/use-permission-catalog.js';
export { useExplain, type ExplainRequest } from './hooks/use-explain.js';
export { useDecisions, type DecisionLogEntry, type DecisionsQuery } from './hooks/use-decisions.js';
export { refusalOf, refusalText } from './http/refusal.js';
export type { Decision, DecisionCheck, DecisionGate, RecordState, RefusalReason } from '@gatehouse/engine/wire';
export {
  useModelIndex,
  useModelInfinite,
  useModelShow,
  useModelTrashed,
  useModelAudit,
  useModelComputedAttributes,
  type ModelRecord,
  type RecordId,
  type QueryHookOptions,
  type ShowQuery,
  type AuditQuery,
  type ListResult,
} from './hooks/use-model-queries.js';
export {
  useModelStore,
  useModelUpdate,
  useModelDelete,
  useModelRestore,
  useModelForceDelete,
  useNestedOperations,
  type NestedOperation,
  type NestedOperations,
} from './hooks/use-model-mutations.js';
