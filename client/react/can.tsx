import { subject } from '@casl/ability';
import { Can as CaslCan } from '@casl/react';
import type { ReactNode } from 'react';
import type { ModelAction } from '../ability/gatehouse-ability.js';
import { useAbility } from '../hooks/use-ability.js';

export interface CanProps {
  /** The action, e.g. `update`. */
  I: ModelAction | (string & {});
  /** The model slug, e.g. `posts`. */
  a: string;
  /**
   * One record of the model: the check then reads the record conditions of the caller's rules
   * (`posts.update:own`), so an Edit button shows only on records the server lets them edit.
   */
  this?: object;
  children?: ReactNode;
  /** Rendered instead of the children when the action is not allowed. */
  fallback?: ReactNode;
}

/** `@casl/react`'s `Can` over the caller's ability, with a fallback for what is not allowed. */
export function Can({ I, a, this: record, children, fallback = null }: CanProps) {
  // Loads the caller's rules into the ability that CASL's Can reads, and re-renders when they change.
  const ability = useAbility();
  // A copy is marked with its model, so the caller's record is left as it is.
  if (record !== undefined) return ability.can(I, subject(a, { ...record })) ? children : fallback;
  return (
    <CaslCan I={I} a={a} passThrough>
      {({ isAllowed }) => (isAllowed ? children : fallback)}
    </CaslCan>
  );
}
