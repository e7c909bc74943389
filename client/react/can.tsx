import { Can as CaslCan } from '@casl/react';
import type { ReactNode } from 'react';
import type { ModelAction } from '../ability/gatehouse-ability.js';
import { useAbility } from '../hooks/use-ability.js';

export interface CanProps {
  /** The action, e.g. `update`. */
  I: ModelAction | (string & {});
  /** The model slug, e.g. `posts`. */
  a: string;
  children?: ReactNode;
  /** Rendered instead of the children when the action is not allowed. */
  fallback?: ReactNode;
}

/** `@casl/react`'s `Can` over the caller's ability, with a fallback for what is not allowed. */
export function Can({ I, a, children, fallback = null }: CanProps) {
  // Loads the caller's rules into the ability that CASL's Can reads.
  useAbility();
  return (
    <CaslCan I={I} a={a} passThrough>
      {({ isAllowed }) => (isAllowed ? children : fallback)}
    </CaslCan>
  );
}
