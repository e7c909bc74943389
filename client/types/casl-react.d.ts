// @casl/react 7 publishes ESM declarations whose relative imports lack the `.js` extension, so
// TypeScript's NodeNext resolution sees an empty module. These are the parts the client uses,
// as its README documents them.
declare module '@casl/react' {
  import type { AnyAbility } from '@casl/ability';
  import type { ReactElement, ReactNode } from 'react';

  export function AbilityProvider<T extends AnyAbility>(props: { value: T; children?: ReactNode }): ReactElement;
  export function useAbility<T extends AnyAbility>(): T;
  export function Can<T extends AnyAbility = AnyAbility>(props: {
    I: string;
    a: string;
    not?: boolean;
    passThrough?: boolean;
    children: ReactNode | ((exposes: { isAllowed: boolean; ability: T; reason: string | undefined }) => ReactNode);
  }): ReactNode;
}
