/** One of pg's text parsers. */
export type Parse = (value: string) => unknown;

// A date's separator and a zone's minus sign.
const HYPHEN = 45;
const SPACE = 32;
const COLON = 58;
const DOT = 46;
const PLUS = 43;
const ZERO = 48;

const digitAt = (text: string, at: number): number => {
  const digit = text.charCodeAt(at) - ZERO;
  return digit >= 0 && digit <= 9 ? digit : -1;
};

/** The two digits at `at` as a number, or -1. */
const twoDigitsAt = (text: string, at: number): number => {
  const tens = digitAt(text, at);
  const ones = digitAt(text, at + 1);
  return tens < 0 || ones < 0 ? -1 : tens * 10 + ones;
};

const TENS = [1, 10, 100, 1000, 10000, 100000, 1000000];
const MAX_FRACTION_DIGITS = TENS.length - 1;

/**
 * The Date postgres-date makes of `text` when it is in the shape PostgreSQL writes nearly every
 * timestamp in (`YYYY-MM-DD HH:MM:SS`, a fraction of up to six digits, then a zone `±HH`,
 * `±HH:MM` or `±HH:MM:SS`, or none for local time), the year 1000 to 9999; otherwise undefined.
 * Its arithmetic is postgres-date's, overflow included. Years before 1000 are left to it for its
 * 0-to-99 correction, BC and five-digit years for its regular expressions.
 */
function commonTimestamp(text: string): Date | undefined {
  const { length } = text;
  if (length < 19 || text.charCodeAt(4) !== HYPHEN || text.charCodeAt(7) !== HYPHEN || text.charCodeAt(10) !== SPACE || text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) return undefined;
  const century = twoDigitsAt(text, 0);
  const yearOfCentury = twoDigitsAt(text, 2);
  const month = twoDigitsAt(text, 5);
  const day = twoDigitsAt(text, 8);
  const hour = twoDigitsAt(text, 11);
  const minute = twoDigitsAt(text, 14);
  const second = twoDigitsAt(text, 17);
  if (century < 10 || yearOfCentury < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  const year = century * 100 + yearOfCentury;
  let at = 19;
  let milliseconds = 0;
  if (text.charCodeAt(at) === DOT) {
    const start = (at += 1);
    let fraction = 0;
    for (let digit = digitAt(text, at); digit >= 0; digit = digitAt(text, (at += 1))) fraction = fraction * 10 + digit;
    const digits = at - start;
    if (digits === 0 || digits > MAX_FRACTION_DIGITS) return undefined;
    // postgres-date's `1000 * parseFloat('.' + digits)`: parseFloat rounds the decimal to the
    // nearest double, as dividing the two exact integers does, so the product is the same.
    milliseconds = 1000 * (fraction / TENS[digits]!);
  }
  if (at === length) return new Date(year, month - 1, day, hour, minute, second, milliseconds);
  const offset = zoneSeconds(text, at);
  if (Number.isNaN(offset)) return undefined;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, milliseconds) - offset * 1000);
}

/** The signed seconds of the zone `±HH`, `±HH:MM` or `±HH:MM:SS` that ends `text` from `at`, or NaN. */
function zoneSeconds(text: string, at: number): number {
  const sign = text.charCodeAt(at);
  const size = text.length - at;
  if ((sign !== PLUS && sign !== HYPHEN) || (size !== 3 && size !== 6 && size !== 9)) return NaN;
  let seconds = 0;
  for (let part = at + 1, unit = 3600; part < text.length; part += 3, unit /= 60) {
    const value = twoDigitsAt(text, part);
    if (value < 0 || (unit < 3600 && text.charCodeAt(part - 1) !== COLON)) return NaN;
    seconds += value * unit;
  }
  return sign === HYPHEN ? -seconds : seconds;
}

/**
 * `parse`, pg's timestamp parser (postgres-date), with the common shape of PostgreSQL's text read
 * by hand first: postgres-date's three regular expressions and parseInts a value were about 3%
 * of the server's CPU on an index page. Every other text goes to `parse` as it is.
 */
export const readingCommonTimestamps =
  (parse: Parse): Parse =>
  (text) =>
    commonTimestamp(text) ?? parse(text);
