import { describe, expect, it, vi } from 'vitest';
import { Holds, TagIndex } from './tag-index.ts';

describe('TagIndex', () => {
  it('finds the keys of a tag once, and forgets keys that were removed', () => {
    const index = new TagIndex();
    index.add('a', ['list:event', 'event:1']);
    index.add('b', ['list:event']);
    index.remove('b', ['list:event']);
    expect(index.take('list:event')).toEqual(['a']);
    expect(index.take('list:event')).toEqual([]);
    expect(index.take('event:1')).toEqual(['a']);
  });
});

describe('Holds', () => {
  it('holds a tag until every hold on it is released, in any order, and reports each release once', () => {
    const holds = new Holds();
    const released = vi.fn();
    const first = holds.hold(['event:1', 'list:event'], released);
    const second = holds.hold(['event:1'], released);
    expect(holds.has(['event:1'])).toBe(true);
    first();
    first();
    expect(released).toHaveBeenCalledTimes(1);
    expect(holds.has(['list:event'])).toBe(false);
    expect(holds.has(['event:1'])).toBe(true);
    second();
    expect(holds.has(['event:1'])).toBe(false);
    expect(released).toHaveBeenLastCalledWith(['event:1']);
  });
});
