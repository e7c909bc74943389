import pg from 'pg';
import { readingCommonTimestamps, type Parse } from './timestamp-text.js';

// Compared, not looked up in a set: a value just read off the wire would be hashed for the lookup.
const keepingInfinity = (parse: Parse): Parse => (value) => (value === 'infinity' || value === '-infinity' ? value : parse(value));

/** The array types pg reads element by element with its date parser, and the type of their elements. */
const INSTANT_ARRAYS = { 1115: pg.types.builtins.TIMESTAMP, 1182: pg.types.builtins.DATE, 1185: pg.types.builtins.TIMESTAMPTZ } as const;

// pg's text[] parser reads the array syntax (nesting, quotes, NULL) and leaves each element as text.
const TEXT_ARRAY: number = 1009;
const parseTextArray = pg.types.getTypeParser(TEXT_ARRAY, 'text') as (value: string) => unknown[];
const eachElement = (items: unknown[], parse: Parse): unknown[] => items.map((item) => (Array.isArray(item) ? eachElement(item, parse) : item === null ? null : parse(item as string)));

// A date's text (no time of day) is never in a timestamp's common shape.
const scalarParser = (oid: number) => {
  const parse = pg.types.getTypeParser(oid, 'text') as Parse;
  return keepingInfinity(oid === pg.types.builtins.DATE ? parse : readingCommonTimestamps(parse));
};

/** The text parsers that differ from node-postgres's own, each made once: pg asks for a parser per field of every answer. */
const OWN_PARSERS = new Map<number, Parse>([
  ...[pg.types.builtins.TIMESTAMP, pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.DATE].map((oid): [number, Parse] => [oid, scalarParser(oid)]),
  ...Object.entries(INSTANT_ARRAYS).map(([oid, element]): [number, Parse] => {
    const parse = scalarParser(element);
    return [Number(oid), (value) => eachElement(parseTextArray(value), parse)];
  }),
]);

/**
 * How the service reads PostgreSQL's values: node-postgres's own parsers, except that an infinite
 * timestamp or date, alone or in an array, stays the text PostgreSQL writes. node-postgres reads
 * it as the number Infinity, which JSON writes as null: the browser would take a set timestamp
 * for NULL, a client writing the record back would store NULL, and a record condition's null
 * check would answer otherwise there than in SQL. A timestamp's text in the shape PostgreSQL
 * writes nearly always is read by hand (`timestamp-text.ts`), to the Date node-postgres makes.
 */
export const ROW_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (format !== 'binary' && OWN_PARSERS.get(oid)) || pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
};
