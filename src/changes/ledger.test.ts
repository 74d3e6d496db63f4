import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decide, type Observation, stateOf, tagsOf } from './ledger.ts';

const seen = (version: string | null, order: string, pub = true): Observation => ({
  kind: 'event',
  id: 7,
  version,
  order,
  public: pub,
});

describe('the ledger decides what is a change', () => {
  it('logs a record never seen as created, and the same version again as nothing', () => {
    const o = seen('a', '2026-01-01 10:00:00');
    const d = decide(undefined, o);
    expect(d).toEqual({ action: 'created', wasPublic: false, state: stateOf(o) });
    expect(decide(d!.state, o)).toBeNull();
  });

  it('logs a newer version as updated, with whether it was public before', () => {
    const before = stateOf(seen('a', '2026-01-01 10:00:00', true));
    const d = decide(before, seen('b', '2026-01-01 10:00:05', false));
    expect(d).toMatchObject({ action: 'updated', wasPublic: true, state: 'b|2026-01-01 10:00:05|0' });
  });

  it('drops a read older than what the log holds (a poll that read before a write)', () => {
    const before = stateOf(seen('b', '2026-01-01 10:00:05'));
    expect(decide(before, seen('a', '2026-01-01 10:00:00'))).toBeNull();
    // A scheduled post published by WordPress keeps its modified date: same order, new version, a change.
    expect(decide(before, seen('c', '2026-01-01 10:00:05'))?.action).toBe('updated');
  });

  it("logs a write's own save once, whichever source saw it first; two writes within a second twice", () => {
    const write = (v: string): Observation => ({ ...seen(v, '2026-01-01 10:00:00'), force: true });
    const polled = stateOf(seen('a', '2026-01-01 10:00:00'));
    // Another source logged the write's version first: the write only marks the entry.
    const marked = decide(polled, write('a'));
    expect(marked).toEqual({ action: null, wasPublic: true, state: `${polled}|w` });
    // Over a write's entry the same version is a second save within the second.
    expect(decide(marked!.state, write('a'))?.action).toBe('updated');
    // A read of the same version after a write is nothing; a new version is a change whoever saw it.
    expect(decide(marked!.state, seen('a', '2026-01-01 10:00:00'))).toBeNull();
    expect(decide(marked!.state, seen('b', '2026-01-01 10:00:01'))?.state).toBe('b|2026-01-01 10:00:01|1');
  });

  it('logs a deletion once, and never brings the record back from a read made before it', () => {
    const before = stateOf(seen('b', '2026-01-01 10:00:05', true));
    const d = decide(before, seen(null, ''));
    expect(d).toEqual({ action: 'deleted', wasPublic: true, state: '-|2026-01-01 10:00:05|0' });
    expect(decide(d!.state, seen(null, ''))).toBeNull();
    expect(decide(d!.state, seen('b', '2026-01-01 10:00:05'))).toBeNull();
    // Restored from the trash later: a newer stamp, created again.
    expect(decide(d!.state, seen('r', '2026-01-01 11:00:00'))?.action).toBe('created');
  });

  it('logs the deletion of a record it never logged (a reader may hold it from an initial sync)', () => {
    expect(decide(undefined, seen(null, ''))).toMatchObject({ action: 'deleted', wasPublic: false });
  });

  it('keeps no order for terms (no modified date): any new version is a change', () => {
    const term = (v: string): Observation => ({ kind: 'tag', id: 3, version: v, order: '', public: true });
    const d = decide(stateOf(term('x')), term('y'));
    expect(d?.action).toBe('updated');
  });

  it('names the cache tags the gateway itself uses', () => {
    expect(tagsOf('event', 5, { category: 'tribe_events_cat', tag: 'post_tag' })).toEqual([
      'event:5',
      'list:event',
    ]);
    expect(tagsOf('tag', 9, { category: 'tribe_events_cat', tag: 'post_tag' })).toEqual([
      'term:post_tag:9',
      'list:term',
      'list:event',
    ]);
  });
});

describe('ledger states as stored', () => {
  it('are flat strings, not trees of the template literal that made them', () => {
    // In a process of its own with the collector exposed: the heap that 50k stored states keep, after collections.
    const ledger = fileURLToPath(new URL('./ledger.ts', import.meta.url));
    const script = `import(${JSON.stringify(ledger)}).then((m) => {
      const o = (i) => ({ kind: 'event', id: i, order: '2026-11-04 14:00:00', public: true,
        version: '2026-11-04 14:00:00~publish~0~' + String(1e9 + i) });
      globalThis.gc(); const before = process.memoryUsage().heapUsed;
      const kept = []; for (let i = 0; i < 50000; i++) kept.push(m.stateOf(o(i)));
      globalThis.gc(); globalThis.gc();
      process.stdout.write(String((process.memoryUsage().heapUsed - before) / kept.length));
    });`;
    const perState = Number(
      execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
        encoding: 'utf8',
      }),
    );
    // A flat one-byte string of its 70 characters is about 90 bytes, plus its slot in the array; the tree was ~290.
    expect(perState).toBeLessThan(150);
  });
});
