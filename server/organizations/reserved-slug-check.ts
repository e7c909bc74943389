import { chain } from '../http/chain.js';
import type { RequestChain } from '../http/request-chain.js';
import type { GatehouseMiddleware, RequestState, SessionState } from '../http/state.js';
import type { Services } from '../services.js';
import { reservedSlugs } from './reserved-slugs.js';

const taken: GatehouseMiddleware<RequestState> = (ctx) => {
  ctx.body = { exists: true };
};

/**
 * The slug check of a reserved slug, answered before the route groups see it: the check for
 * `admin` is `{base}/admin/organizations/exists`, which is also a URL of the `admin` group, and
 * that group would refuse a session of another group or read `exists` as a record id. A reserved
 * slug is taken for any signed-in caller (`signedIn`, a session of any group), and no
 * organization has it.
 */
export function reservedSlugCheck(services: Services, signedIn: RequestChain<RequestState, SessionState>): GatehouseMiddleware {
  const reserved = reservedSlugs(services.config.routeGroups);
  const prefix = `${services.config.basePath}/`;
  const answer = chain(signedIn.before(taken));
  // Every request passes here: the method and the path's end settle almost all before any split.
  return (ctx, next) => {
    const { method, path } = ctx;
    if ((method !== 'GET' && method !== 'HEAD') || !path.startsWith(prefix) || !/\/exists\/?$/.test(path)) return next();
    const segments = path.slice(prefix.length).replace(/\/$/, '').split('/');
    const checksReservedSlug = segments.length === 3 && segments[1] === 'organizations' && reserved.has(segments[0]!);
    return checksReservedSlug ? answer(ctx, next) : next();
  };
}
