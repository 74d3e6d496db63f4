// Wall-clock keys order as their strings do and give them back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wall } from '../arbitraries.ts';
import { NO_DATE, wallKey, wallText } from './wall-clock.ts';

describe('wall clock keys', () => {
  it('order as the strings do and give them back', () => {
    fc.assert(
      fc.property(wall, wall, (a, b) => {
        expect(Math.sign(wallKey(a) - wallKey(b))).toBe(a < b ? -1 : a > b ? 1 : 0);
        expect(wallText(wallKey(a))).toBe(a);
      }),
    );
    expect(wallKey('2026-05-01') < wallKey('2026-05-01 00:00:00')).toBe(true);
    expect(wallKey('2026-05-01') > wallKey('2026-04-30 23:59:59')).toBe(true);
    expect(wallText(wallKey('2026-05-01'))).toBe('2026-05-01');
    expect(wallKey('')).toBe(NO_DATE);
    expect(wallKey('tomorrow')).toBe(NO_DATE);
  });
});
