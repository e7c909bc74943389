// `gatehouse/client/native` is `@gatehouse/client/native`, installed beside `gatehouse`.
export * from '@gatehouse/client/native';
