import pg from 'pg';

// Compared, not looked up in a set: a value just read off the wire would be hashed for the lookup.
const keepingInfinity = (parse: (value: string) => unknown) => (value: string) => (value === 'infinity' || value === '-infinity' ? value : parse(value));

/** The text parsers that differ from node-postgres's own, each made once: pg asks for a parser per field of every answer. */
const OWN_PARSERS = new Map(
  [pg.types.builtins.TIMESTAMP, pg.types.builtins.TIMESTAMPTZ].map((oid) => [oid, keepingInfinity(pg.types.getTypeParser(oid, 'text') as (value: string) => unknown)]),
);

/**
 * How the service reads PostgreSQL's values: node-postgres's own parsers, except that an infinite
 * timestamp stays the text PostgreSQL writes. node-postgres reads it as the number Infinity,
 * which JSON writes as null: the browser would take a set timestamp for NULL, and a record
 * condition's null check would answer otherwise there than in SQL.
 */
export const ROW_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (format !== 'binary' && OWN_PARSERS.get(oid)) || pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
};
