import { execFileSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { afterPoll, nextSlice, sliceOver, TURN_MS } from './turns.ts';

/** Holds the thread for `ms` (an item of paced work). */
const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

/**
 * A job of `items` items of `itemMs` each, yielding after `sliceMs` of its own or when the turn is spent; `yielded` is
 * told how many items it had done at each yield.
 */
async function job(
  items: number,
  itemMs: number,
  sliceMs: number,
  done: (n: number) => void,
  yielded: (n: number) => void = () => {},
): Promise<void> {
  let t0 = performance.now();
  for (let i = 1; i <= items; i++) {
    busy(itemMs);
    done(i);
    if (sliceOver(t0, sliceMs)) {
      yielded(i);
      await nextSlice();
      t0 = performance.now();
    }
  }
}

describe('one budget per turn for every paced job', () => {
  it('holds a turn to TURN_MS of all the jobs together, and takes them in turn', async () => {
    const ITEM_MS = 1.5;
    const ITEMS = 24;
    const progress = [0, 0, 0];
    // The items done between two runs of a probe that runs once in every turn of the event loop.
    const perTurn: number[] = [];
    let seen = 0;
    let probing = true;
    const probe = () => {
      const total = progress.reduce((a, b) => a + b, 0);
      perTurn.push(total - seen);
      seen = total;
      if (probing) setImmediate(probe);
    };
    setImmediate(probe);
    // The slices each job had been given (its yields) when the first job ended.
    const yields = [0, 0, 0];
    let firstYields: number[] | undefined;
    let first = -1;
    // Each job's own slice (10 ms) would let it run 7 items a turn, 21 for the three together.
    await Promise.all(
      progress.map((_, k) =>
        job(
          ITEMS,
          ITEM_MS,
          10,
          (n) => {
            progress[k] = n;
          },
          () => {
            yields[k]!++;
          },
        ).then(() => {
          if (firstYields) return;
          firstYields = [...yields];
          first = k;
        }),
      ),
    );
    probing = false;
    // An item begun with room left may end past the budget: at most floor(TURN_MS / ITEM_MS) + 1 items a turn, the
    // first slice of each job (run before any turn, on its own slice alone) aside.
    const bound = Math.floor(TURN_MS / ITEM_MS) + 1;
    expect(Math.max(...perTurn.slice(2))).toBeLessThanOrEqual(bound);
    // Taken in turn: when the first job ended, each other job had been given as many slices as it, less two. Slices,
    // not items: the turn's budget is wall clock, so a wait for a core inside a job's slice cuts its items (CI, at a
    // load of 16, once left a job 7 items behind after 8 slices each), while the order the slices are given in is the
    // scheduler's alone. A last-in-first-out queue gives the others none.
    for (const k of [0, 1, 2]) expect(firstYields![k]!).toBeGreaterThanOrEqual(firstYields![first]! - 2);
  });

  it('keeps to its own slice alone outside a turn', () => {
    expect(sliceOver(performance.now(), 50)).toBe(false);
    expect(sliceOver(performance.now() - 60, 50)).toBe(true);
  });

  it('wakes a lone waiter whatever else the loop has to do', () => {
    // A process whose only work is a chain of waits, beside busy processes: each wait is woken and the process ends.
    const turns = fileURLToPath(new URL('./turns.ts', import.meta.url));
    const script = `import(${JSON.stringify(turns)}).then(async (m) => {
      for (let i = 0; i < 200; i++) await m.nextSlice();
      process.stdout.write('woken 200 times');
    });`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(out).toBe('woken 200 times');
  });
});

describe('afterPoll', () => {
  /**
   * Request A's callback sends request B on a connection already open, then waits with `wait` and notes its step; B's
   * callback notes itself. The order they were noted in.
   */
  async function orderWith(wait: () => Promise<void>): Promise<string[]> {
    const order: string[] = [];
    const b = new Promise<net.Socket>((resolve) => {
      const s = net.connect(port(), '127.0.0.1', () => resolve(s));
    });
    const bSocket = await b;
    await new Promise((r) => setTimeout(r, 20));
    handlers.a = async () => {
      bSocket.write('GET /b HTTP/1.1\r\nHost: x\r\n\r\n');
      // B's bytes are in the kernel now; the loop reads them at its next poll.
      const until = performance.now() + 5;
      while (performance.now() < until);
      await wait();
      order.push('a: its step');
    };
    handlers.b = () => order.push('b: read');
    const a = await fetch(`http://127.0.0.1:${port()}/a`);
    await a.text();
    await new Promise((r) => setTimeout(r, 50));
    bSocket.destroy();
    return order;
  }

  const handlers: { a?: () => Promise<void>; b?: () => void } = {};
  const server = http.createServer(async (req, res) => {
    if (req.url === '/a') await handlers.a?.();
    else handlers.b?.();
    res.end('ok');
  });
  const port = () => (server.address() as net.AddressInfo).port;

  it('resumes after the requests that arrived while the caller ran, where one immediate does not', async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      expect(await orderWith(afterPoll)).toEqual(['b: read', 'a: its step']);
      expect(await orderWith(() => new Promise((r) => setImmediate(r)))).toEqual(['a: its step', 'b: read']);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
