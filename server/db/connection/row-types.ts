import pg from 'pg';

const TIMESTAMPS: readonly number[] = [pg.types.builtins.TIMESTAMP, pg.types.builtins.TIMESTAMPTZ];
const INFINITIES = new Set(['infinity', '-infinity']);

/**
 * How the service reads PostgreSQL's values: node-postgres's own parsers, except that an infinite
 * timestamp stays the text PostgreSQL writes. node-postgres reads it as the number Infinity,
 * which JSON writes as null: the browser would take a set timestamp for NULL, and a record
 * condition's null check would answer otherwise there than in SQL.
 */
export const ROW_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    const parse = pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
    if (format === 'binary' || !TIMESTAMPS.includes(oid)) return parse;
    return (value: string) => (INFINITIES.has(value) ? value : parse(value));
  }) as pg.CustomTypesConfig['getTypeParser'],
};
