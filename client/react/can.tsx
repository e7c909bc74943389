import type { ReactNode } from 'react';
import { useAbility } from '../hooks/use-ability.js';
import type { ModelAction } from '../ability/gatehouse-ability.js';

export interface CanProps {
  /** The action, e.g. `update`. */
  I: ModelAction;
  /** The model slug, e.g. `posts`. */
  a: string;
  children?: ReactNode;
  /** Rendered instead of the children when the action is not allowed. */
  fallback?: ReactNode;
}

/** Renders its children only when the caller's permissions allow the action on the model. */
export function Can({ I, a, children, fallback = null }: CanProps) {
  return <>{useAbility().can(I, a) ? children : fallback}</>;
}
