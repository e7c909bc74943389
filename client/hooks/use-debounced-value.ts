import { useEffect, useState } from 'react';

/** The value once it has stopped changing for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settledValue, setSettledValue] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettledValue(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settledValue;
}
