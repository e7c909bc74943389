/**
 * The class whose prototype defines `method` for this instance: the instance's own class may be
 * one `resolvePolicy` derived (an unnamed subclass bound to a slug), which defines nothing.
 */
export function definingClass(policy: object, method: string): abstract new (...args: never[]) => unknown {
  let owner = Object.getPrototypeOf(policy) as object | null;
  while (owner !== null && !Object.hasOwn(owner, method)) owner = Object.getPrototypeOf(owner) as object | null;
  return (owner ?? Object.getPrototypeOf(policy)).constructor as abstract new (...args: never[]) => unknown;
}

/** `PostPolicy.create`: the method as the class that defines it names it. */
export function policyMethodName(policy: object, method: string): string {
  return `${definingClass(policy, method).name}.${method}`;
}
