/** An answer's JSON as PostgreSQL wrote it: the route sends it as it is, never parsed or written again. */
export class JsonText {
  constructor(readonly text: string) {}
}
