// `gatehouse/engine` is `@gatehouse/engine`, so code written against the single package keeps working.
export * from '@gatehouse/engine';
