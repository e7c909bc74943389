// `Date.parse` takes strings PostgreSQL refuses ("1", "2024-02-30", year 0), and a refused literal
// fails the whole statement. Filters take ISO 8601 only, with every field in its range, and hand
// PostgreSQL the string itself, so its microseconds and offset are kept.
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-](\d{2})(?::?(\d{2}))?)?)?$/;

/** Whether the value is an ISO 8601 date or date-time of a real calendar day and clock time. */
export function isIsoTimestamp(value: string): boolean {
  const match = ISO_8601.exec(value);
  if (!match) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  const calendarDay = new Date(Date.UTC(year!, month! - 1, day!));
  const realDay = year! >= 1 && calendarDay.getUTCMonth() === month! - 1 && calendarDay.getUTCDate() === day;
  return realDay && hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 15 && offsetMinutes <= 59;
}
