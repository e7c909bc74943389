/**
 * A WAL position (`pg_lsn`, written `16/B374D848`) as a number that compares: PostgreSQL's text
 * form is two hexadecimal halves, which do not sort as strings.
 */
export type WalPosition = bigint;

const LSN = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

export function walPosition(text: string): WalPosition {
  const match = LSN.exec(text);
  if (!match) throw new TypeError(`Not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}
