export { createGatehouse, type CallOptions, type Gatehouse, type GatehouseOptions, type PermissionsOptions } from './create-gatehouse.js';
export type { AuthorizeCheck, AuthorizePlan, AuthorizePlanRequest, AuthorizeResult } from '@gatehouse/engine/wire';
export { policyContextOf, type ServicePolicyClass } from './engine-bridge.js';
export { GatehouseError, GatehouseOptionError, ScopedPlanError, serviceStatus, UnauthenticatedError, UnmappedRelationError, type GatehouseErrorKind } from './errors.js';
export { DEFAULT_MAX_CONNECTIONS, DEFAULT_TIMEOUTS, type Timeouts } from './http-client.js';
export { requestCaller, type ConnectRequest, type ConnectResponse, type FastifyLikeReply, type FastifyLikeRequest, type RequestCaller } from './middleware.js';
export type { OnUnavailable, Permissions } from './permissions-cache.js';
export type { TokenCaller } from './token-verifier.js';
export { planToSql, type PlanRelation, type PlanSql, type PlanSqlOptions, type PlanTable } from './plan-to-sql.js';
