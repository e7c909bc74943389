// `@gatehouse/engine/wire`: the names the server writes and the client reads back (the wildcard,
// the standard actions, the options of a packed ability, the pagination headers, the reasons of
// refusals). Plain values, no dependency, so a browser bundle takes them without the engine.
export { ABILITY_OPTIONS } from './ability-options.js';
export { AUTHORIZE_GATES, SERVICE_HEADER, SERVICE_NAME, SERVICE_NAME_RULE, type AuthorizeCheck, type AuthorizeGate, type AuthorizePlan, type AuthorizePlanRequest, type AuthorizeReason, type AuthorizeResult } from './authorize-check.js';
export { PAGE_HEADERS } from './page-headers.js';
export { EXPLAIN_GATES, GATE_STATUS, type Decision, type DecisionCheck, type ExplainGate, type RecordState } from './decision.js';
export { DECISION_GATES, REFUSAL_GATES, type DecisionGate, type RefusalGate, type RefusalReason } from './refusal-reason.js';
export { POLICY_ACTIONS, STANDARD_ACTIONS, type PolicyMethod, type StandardAction } from './standard-actions.js';
export { footerKeyId, tokenFooter } from './token-footer.js';
export { WILDCARD } from './wildcard.js';
