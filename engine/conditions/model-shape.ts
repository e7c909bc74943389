/** The kinds of attribute a condition may test; the server's attribute types map onto them. */
export type ShapeAttribute = 'integer' | 'number' | 'string' | 'boolean' | 'timestamp' | 'string[]';

export interface ShapeRelation {
  readonly kind: 'belongsTo' | 'hasMany';
  /** The related model's slug. */
  readonly model: string;
  /** belongsTo: the column on this model; hasMany: the column on the related model. */
  readonly foreignKey: string;
}

/** What a condition of a model may name: its attributes and its relations. */
export interface ModelShape {
  readonly slug: string;
  /** The table its rows live in, for the SQL compiler. */
  readonly table: string;
  readonly attributes: Readonly<Record<string, ShapeAttribute>>;
  readonly relations: Readonly<Record<string, ShapeRelation>>;
}

/** The shape of a model by slug; undefined for an unknown one. */
export type ShapeLookup = (slug: string) => ModelShape | undefined;
