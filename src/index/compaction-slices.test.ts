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
    // The last item alone takes a third of the slice: a wait for a core after item 1 (a loaded machine) may end a
    // slice there, and the last slice must still count as long (with 0.6 ms each it then read 0.6 ms: the suite of
    // 2026-12-02 at load 15 saw 'caller' before 'turn after').
    const done = inSlices(
      [1, 2],
      3,
      (i) => {
        order.push(`item ${i}`);
        busy(i === 2 ? 1.1 : 0.6);
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
    // A slice far longer than any wait for a core, so the one item's slice stays short.
    await inSlices(
      [1],
      3000,
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
