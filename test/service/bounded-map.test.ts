import { describe, expect, it } from 'vitest';
import { BoundedMap, KEPT_ENTRIES } from '../../src/server-kit/bounded-map.js';

describe('the bounded map every kept-values store uses', () => {
  it('holds at most its limit, dropping the entry set longest ago', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) map.set(key, index);
    expect(map.size).toBe(3);
    expect(map.has('a')).toBe(false);
    expect([map.get('b'), map.get('c'), map.get('d')]).toEqual([1, 2, 3]);
  });

  it('makes a key set again the newest, so it outlives the others', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    map.set('c', 4);
    expect(map.has('b')).toBe(false);
    expect(map.get('a')).toBe(3);
    map.delete('a');
    map.clear();
    expect(map.size).toBe(0);
  });

  it('is bounded by the one shared bound by default', () => {
    const map = new BoundedMap<number, number>();
    for (let key = 0; key <= KEPT_ENTRIES; key += 1) map.set(key, key);
    expect(map.size).toBe(KEPT_ENTRIES);
    expect(map.has(0)).toBe(false);
  });
});
