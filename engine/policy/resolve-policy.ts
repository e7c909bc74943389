import type { PolicyContext } from './policy-context.js';
import { slugForPolicyName } from './resource-naming.js';
import { ResourcePolicy } from './resource-policy.js';

export type PolicyClass = (new (context: PolicyContext) => ResourcePolicy<object>) &
  Pick<typeof ResourcePolicy, 'resourceSlug' | 'model' | 'declaredResourceSlug' | 'conditions'>;

export type PolicyRegistry = Readonly<Record<string, PolicyClass>>;

const boundPolicies = new WeakMap<PolicyClass, Map<string, PolicyClass>>();

/**
 * The policy class for a resource slug, else `ResourcePolicy`. A registered policy that declares
 * its slug (`resourceSlug` or `model`) serves exactly that slug; one that declares none serves
 * the slug its registry name gives by convention (`PostPolicy` → `posts`, `CategoryPolicy` →
 * `categories`) and comes back as a subclass bound to it, so its checks use that slug.
 */
export function resolvePolicy(slug: string, policies: PolicyRegistry): PolicyClass {
  const found = Object.entries(policies).find(([name, policy]) => (policy.declaredResourceSlug() ?? slugForPolicyName(name)) === slug);
  const policy = found === undefined ? ResourcePolicy : found[1];
  return policy.declaredResourceSlug() === undefined ? bindPolicySlug(policy, slug) : policy;
}

/** The policy as a subclass serving `slug`, made once per policy and slug. */
export function bindPolicySlug(policy: PolicyClass, slug: string): PolicyClass {
  let bySlug = boundPolicies.get(policy);
  if (bySlug === undefined) boundPolicies.set(policy, (bySlug = new Map()));
  let bound = bySlug.get(slug);
  if (bound === undefined) {
    bound = class extends policy {
      static override resourceSlug = slug;
    };
    bySlug.set(slug, bound);
  }
  return bound;
}
