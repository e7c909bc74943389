// Keys and integer attributes are PostgreSQL `integer` columns. A value past their range does not
// match nothing: it fails the whole statement. Input is held to the range before it reaches SQL.
export const MIN_INTEGER = -2_147_483_648;
export const MAX_INTEGER = 2_147_483_647;

export const isStoredInteger = (value: number) => Number.isInteger(value) && value >= MIN_INTEGER && value <= MAX_INTEGER;
