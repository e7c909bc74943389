import { decisionsQuerySchema } from '../decisions/decisions-query.js';
import { listDecisions } from '../decisions/list-decisions.js';
import { explainRequest } from '../explain/explain-route.js';
import { explainSchema } from '../explain/explain-schema.js';
import { authorize } from '../permissions/authorize.js';
import { tenantMember } from '../route-groups/request-chains.js';
import { noWritePosition } from '../http/no-write-position.js';
import type { RouteDefinition } from './route-definition.js';
import { listOf, ref } from './response-schemas.js';

/** Why requests are allowed or refused under `{t}`: explanations on demand and the log of refusals. */
export const DECISION_ROUTES: readonly RouteDefinition[] = [
  {
    operationId: 'explainDecision',
    method: 'post',
    path: '/explain',
    summary: 'How a member’s data request would be decided, gate by gate, and why',
    description:
      'Without `user_id` any member explains their own request; another member’s needs `decisions.explain`. The checks follow the documented order and stop at the first refusal; why a record of this organization is out of reach (the trash, a scope, row-level security) only for holders of `decisions.explain`; an id outside the organization is `missing`, as if it did not exist.',
    tag: 'decisions',
    access: 'bearer',
    body: explainSchema,
    responses: { 200: { description: 'The decision', schema: ref('Decision') } },
    errors: [400, 401, 403, 404, 422],
    handle: (services) => [noWritePosition(), ...tenantMember(services).before(explainRequest(services))],
  },
  {
    operationId: 'listDecisions',
    method: 'get',
    path: '/decisions',
    summary: 'The organization’s refused requests, newest first (with `decisionLog.store: database`)',
    description: 'Needs the permission `decisions.index`. Filters: `user_id`, `gate`, `permission`, `source` (`request` or `authorize`), `model`, `since` (an ISO date or time); `page`, `per_page`.',
    tag: 'decisions',
    access: 'bearer',
    query: decisionsQuerySchema,
    responses: { 200: { description: 'One page of refusals', paged: true, schema: listOf(ref('DecisionLogEntry')) } },
    errors: [400, 401, 403, 404],
    handle: (services) => tenantMember(services).before(authorize('index', 'decisions'), listDecisions()),
  },
];
