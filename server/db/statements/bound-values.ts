/**
 * Where one of a statement's values goes. A cached statement is compiled once with these in place
 * of its values, so its SQL and the order of its parameters come from Kysely itself and every
 * later request with the same shape only puts its own values in their places.
 */
export class Placeholder {
  constructor(readonly index: number) {}

  /** Statement shapes are keyed by their JSON; the index is part of it, so two shapes that order their values differently never share SQL. */
  toJSON(): string {
    return `?${this.index}`;
  }
}

/**
 * One statement's values, collected while its shape is taken: `bind` keeps the value and hands
 * back its placeholder. The placeholder stands where the value would; a statement builder only
 * passes it on to Kysely (never reads or combines it), so anything derived from a value is
 * derived before it is bound.
 */
export class BoundValues {
  readonly values: unknown[] = [];

  bind<T>(value: T): T {
    this.values.push(value);
    return new Placeholder(this.values.length - 1) as unknown as T;
  }
}
