import type { PolicyUser } from '../policy/policy-context.js';
import type { ResourcePolicy } from '../policy/resource-policy.js';

type ShowPolicy = Pick<ResourcePolicy, 'permittedAttributesForShow' | 'hiddenAttributesForShow'>;

type AttributeRecord = Record<string, unknown>;

// Clients address records by id, so no attribute rule may take it away.
const ALWAYS_READABLE = 'id';

/**
 * The policy's read rule for one caller as a test of an attribute's name: the whitelist narrows
 * first, the blacklist then strips, `id` always stays. The policy is asked once, however many
 * names are tested.
 */
export function readableAttribute(policy: ShowPolicy, user: PolicyUser | null): (attribute: string) => boolean {
  const permitted = policy.permittedAttributesForShow(user);
  const whitelist = permitted === null ? null : new Set(permitted);
  const blacklist = new Set(policy.hiddenAttributesForShow(user));
  return (attribute) => attribute === ALWAYS_READABLE || ((whitelist === null || whitelist.has(attribute)) && !blacklist.has(attribute));
}

/** The same rule as a function over records, for callers gating whole records. */
export function readableAttributeFilter(policy: ShowPolicy, user: PolicyUser | null): <T extends AttributeRecord>(record: T) => Partial<T> {
  const readable = readableAttribute(policy, user);
  return <T extends AttributeRecord>(record: T): Partial<T> =>
    Object.fromEntries(Object.entries(record).filter(([attribute]) => readable(attribute))) as Partial<T>;
}

export function gateReadableAttributes<T extends AttributeRecord>(policy: ShowPolicy, user: PolicyUser | null, record: T): Partial<T> {
  return readableAttributeFilter(policy, user)(record);
}

export function gateReadableRecords<T extends AttributeRecord>(policy: ShowPolicy, user: PolicyUser | null, records: readonly T[]): Partial<T>[] {
  return records.map(readableAttributeFilter(policy, user));
}
