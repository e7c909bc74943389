import pg from 'pg';

/** How a session writes dates and intervals (`DateStyle`, `IntervalStyle`). */
export interface SessionStyles {
  dateStyle: string;
  intervalStyle: string;
}

/**
 * What in `styles` the service cannot read, as the statements that fix it for `role`; null when
 * nothing. node-postgres reads timestamps in the ISO style only and intervals in the `postgres`
 * style only: in any other a timestamp reads as null or a wrong instant, and a client writing the
 * record back would store that.
 */
export function unreadableStyles(role: string, { dateStyle, intervalStyle }: SessionStyles): string | null {
  const fixes = [
    !/^ISO\b/i.test(dateStyle) && { setting: 'DateStyle', now: dateStyle, needed: 'ISO, MDY' },
    intervalStyle !== 'postgres' && { setting: 'IntervalStyle', now: intervalStyle, needed: 'postgres' },
  ].filter((fix) => fix !== false);
  if (fixes.length === 0) return null;
  const now = fixes.map(({ setting, now }) => `${setting} '${now}'`).join(' and ');
  const statements = fixes.map(({ setting, needed }) => `ALTER ROLE ${pg.escapeIdentifier(role)} SET ${setting} = '${needed}';`).join(' ');
  return `The database's sessions write ${now}, which Gatehouse would read as wrong or missing values. Set ${fixes.length > 1 ? 'them' : 'it'} for the service's login: ${statements}`;
}
