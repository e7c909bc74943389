// `gatehouse/client` is `@gatehouse/client`, installed beside `gatehouse` (an optional peer, so a
// server never pulls React in).
export * from '@gatehouse/client';
