// pg exports its lib modules (`pg/lib/*`) but types none of them; this is the one function its
// Query uses to turn a parameter into what goes on the wire, which a statement batch must share.
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
