export { createGatehouse, type Gatehouse, type GatehouseOptions, type PermissionsOptions } from './create-gatehouse.js';
export type { AuthorizeCheck, AuthorizeResult } from '@gatehouse/engine/wire';
export { policyContextOf, type ServicePolicyClass } from './engine-bridge.js';
export { GatehouseError, UnauthenticatedError } from './errors.js';
export { requestCaller, type ConnectRequest, type ConnectResponse, type FastifyLikeReply, type FastifyLikeRequest, type RequestCaller } from './middleware.js';
export type { Permissions } from './permissions-cache.js';
export type { TokenCaller } from './token-verifier.js';
