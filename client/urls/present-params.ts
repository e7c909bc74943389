/** Query parameters as strings, leaving out those with no value (undefined or empty). */
export function presentParams(params: Record<string, string | number | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).flatMap(([key, value]) => (value === undefined || value === '' ? [] : [[key, String(value)]])));
}
