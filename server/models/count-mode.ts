/**
 * How an index counts its rows (`Prefer: count=...`, PostgREST's meanings): `exact` counts them
 * all, `planned` takes the planner's estimate, `estimated` counts exactly up to
 * ESTIMATE_THRESHOLD rows and estimates above, `none` reports no total.
 */
export const COUNT_MODES = ['exact', 'planned', 'estimated', 'none'] as const;
export type CountMode = (typeof COUNT_MODES)[number];

/** Up to this many rows `count=estimated` counts exactly: a bounded scan. */
export const ESTIMATE_THRESHOLD = 10_000;

export const isCountMode = (value: unknown): value is CountMode => COUNT_MODES.includes(value as CountMode);

/**
 * The count the client prefers, from its `Prefer` header, or null. Like any preference it is a
 * wish: one the server does not understand is ignored (RFC 7240), never an error.
 */
export function preferredCount(header: string): CountMode | null {
  for (const preference of header.split(',')) {
    const [name, value] = preference.split(';')[0]!.split('=').map((part) => part.trim().toLowerCase());
    if (name === 'count' && isCountMode(value)) return value;
  }
  return null;
}
