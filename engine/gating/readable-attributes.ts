import type { PolicyUser } from '../policy/policy-context.js';
import type { ResourcePolicy } from '../policy/resource-policy.js';

type ShowPolicy = Pick<ResourcePolicy, 'permittedAttributesForShow' | 'hiddenAttributesForShow'>;

type AttributeRecord = Record<string, unknown>;

// Clients address records by id, so no attribute rule may take it away.
const ALWAYS_READABLE = 'id';

/**
 * The policy's read rule for one caller as a function over records: the whitelist narrows
 * first, the blacklist then strips, `id` always stays. The policy is asked once, however many
 * records pass through.
 */
export function readableAttributeFilter(policy: ShowPolicy, user: PolicyUser | null): <T extends AttributeRecord>(record: T) => Partial<T> {
  const permitted = policy.permittedAttributesForShow(user);
  const whitelist = permitted === null ? null : new Set(permitted);
  const blacklist = new Set(policy.hiddenAttributesForShow(user));
  const readable = (attribute: string): boolean =>
    attribute === ALWAYS_READABLE || ((whitelist === null || whitelist.has(attribute)) && !blacklist.has(attribute));
  return <T extends AttributeRecord>(record: T): Partial<T> =>
    Object.fromEntries(Object.entries(record).filter(([attribute]) => readable(attribute))) as Partial<T>;
}

export function gateReadableAttributes<T extends AttributeRecord>(policy: ShowPolicy, user: PolicyUser | null, record: T): Partial<T> {
  return readableAttributeFilter(policy, user)(record);
}

export function gateReadableRecords<T extends AttributeRecord>(policy: ShowPolicy, user: PolicyUser | null, records: readonly T[]): Partial<T>[] {
  return records.map(readableAttributeFilter(policy, user));
}
