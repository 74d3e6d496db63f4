import { setImmediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import { inSlices } from './compaction.ts';

/** Burns `ms` of the main thread. */
const busy = (ms: number) => {
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {}
};

describe('inSlices', () => {
  it('with ownTurns, leaves the turn before its first item and after a long last slice', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('turn before'));
    const done = inSlices(
      [1, 2],
      3,
      (i) => {
        order.push(`item ${i}`);
        busy(0.6);
        if (i === 2) setImmediate(() => order.push('turn after'));
      },
      true,
    );
    await done;
    order.push('caller');
    expect(order).toEqual(['turn before', 'item 1', 'item 2', 'turn after', 'caller']);
  });

  it('without, runs in the caller’s turn and hands back in it while no slice is over', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('turn'));
    await inSlices([1, 2], 3, (i) => order.push(`item ${i}`));
    order.push('caller');
    expect(order).toEqual(['item 1', 'item 2', 'caller']);
  });

  it('with ownTurns, hands back without another turn after a short last slice', async () => {
    const order: string[] = [];
    await inSlices(
      [1],
      300,
      (i) => {
        order.push(`item ${i}`);
        setImmediate(() => order.push('turn after'));
      },
      true,
    );
    order.push('caller');
    expect(order).toEqual(['item 1', 'caller']);
  });
});
