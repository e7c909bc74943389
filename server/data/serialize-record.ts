import type { ModelDefinition } from '../models/define-model.js';
import type { IncludedRelations } from '../listing/load-includes.js';
import type { LooseRow } from '../models/loose-schema.js';
import type { DataActionContext } from './data-action-context.js';
import { exposedAttributes } from './exposed-attributes.js';

export type AttributeReader = (values: LooseRow) => LooseRow;

export interface RecordSerializer {
  /** One record as the caller may see it, with its included relations serialized the same way. */
  serialize(model: ModelDefinition, row: LooseRow): LooseRow;
  /** The model's read gate alone, for values that are not a row (audit entries). */
  reader(model: ModelDefinition): AttributeReader;
  /** The names the read gate lets through. */
  readable(model: ModelDefinition): ReadonlySet<string>;
}

export interface SerializeOptions {
  /** `fields[slug]` of the request; the key always stays so clients can address the record. */
  fields?: Record<string, string[]>;
  /** Computed attributes to add per model slug, each read-gated like the attributes it uses. */
  computed?: Record<string, string[]>;
  included?: IncludedRelations;
}

/** The exposed attributes a request shows: those its `fields` names, and the key, so clients can address the record; all without `fields`. */
export function shownAttributes(exposed: ReadonlySet<string>, requested: readonly string[] | undefined): ReadonlySet<string> {
  return requested ? new Set([...exposed].filter((name) => name === 'id' || requested.includes(name))) : exposed;
}

/**
 * A value as JSON.stringify writes it, a Date as the text its `toJSON` gives (null for an invalid
 * one): the answer is only ever written as JSON. Node 20's V8 leaves its fast JSON.stringify path
 * for every Date it meets, and `toJSON` itself reaches `toISOString` the slow way: a page of 25
 * records with two timestamps each took about a third longer to write.
 */
const written = (value: unknown): unknown => (value instanceof Date ? (Number.isNaN(value.getTime()) ? null : value.toISOString()) : value);

/** Builds a model's piece once per serializer, however many rows pass through. */
function perModel<T>(build: (model: ModelDefinition) => T): (model: ModelDefinition) => T {
  const built = new Map<ModelDefinition, T>();
  return (model) => {
    if (!built.has(model)) built.set(model, build(model));
    return built.get(model)!;
  };
}

/**
 * Only declared, non-hidden columns leave (an undeclared column such as a password hash never
 * does); the policy's read gate then narrows and strips them. Each model's policy is asked once
 * per serializer, however many rows pass through.
 */
export function recordSerializer(context: DataActionContext, { fields = {}, computed = {}, included }: SerializeOptions = {}): RecordSerializer {
  // The names that may leave, found once per model: each row is then copied in one pass.
  const exposed = perModel((model) => new Set(exposedAttributes(model, context.readable(model))));
  const shown = perModel((model) => shownAttributes(exposed(model), fields[model.slug]));
  const copier = (names: (model: ModelDefinition) => ReadonlySet<string>) => (model: ModelDefinition) => {
    const allowed = names(model);
    return (values: LooseRow): LooseRow => {
      const record: LooseRow = {};
      for (const name of Object.keys(values)) if (allowed.has(name)) record[name] = written(values[name]);
      return record;
    };
  };
  const reader = perModel(copier(exposed));
  const showing = perModel(copier(shown));
  // A computed attribute is readable when its own name and every attribute it uses are.
  const readableComputed = perModel((model) =>
    (computed[model.slug] ?? []).filter((name) => [name, ...model.computedAttributes[name]!.uses].every(context.readable(model))),
  );
  const serialize = (model: ModelDefinition, row: LooseRow): LooseRow => {
    const record = showing(model)(row);
    for (const name of readableComputed(model)) record[name] = model.computedAttributes[name]!.compute(row);
    for (const [name, { target, value }] of Object.entries(included?.get(row) ?? {})) {
      record[name] = Array.isArray(value) ? value.map((child) => serialize(target, child)) : value && serialize(target, value);
    }
    return record;
  };
  return { serialize, reader, readable: exposed };
}
