import { describe, expect, it } from 'vitest';
import { jsonArrayInSlices, mapInSlices } from '../../../server/data/in-slices.js';

const busyFor = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('work on many records, a slice at a time', () => {
  it('lets other callbacks run between items once a slice is spent, and keeps the order', async () => {
    const events: string[] = [];
    setImmediate(() => events.push('another request'));
    const mapped = await mapInSlices([1, 2, 3], (item) => {
      events.push(`item ${item}`);
      busyFor(3);
      return item * 10;
    });
    expect(mapped).toEqual([10, 20, 30]);
    expect(events.indexOf('another request')).toBeGreaterThan(0);
    expect(events.indexOf('another request')).toBeLessThan(events.indexOf('item 3'));
  });

  it('writes the JSON JSON.stringify writes for the array, byte for byte', async () => {
    const items = [{ a: 1, at: new Date(0), nested: [{ b: null }], text: 'é"\n' }, undefined, null, 'x', 1.5, [], {}];
    expect(await jsonArrayInSlices(items)).toBe(JSON.stringify(items));
    expect(await jsonArrayInSlices([])).toBe('[]');
  });
});
