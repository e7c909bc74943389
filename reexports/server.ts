// `gatehouse/server` is `@gatehouse/server`, for the demo and the tests of the workspace.
export * from '@gatehouse/server';
