// Tests for the build progress display when stderr is not a terminal.
import { describe, expect, it, vi } from 'vitest';
import { buildProgress, type IndexLogger } from './progress.ts';

describe('buildProgress', () => {
  it('logs one line at the start and one with the count and milliseconds at the end when not on a terminal', () => {
    const logger = { info: vi.fn<IndexLogger['info']>(), warn: vi.fn<IndexLogger['warn']>() };
    const p = buildProgress('es', logger, false);
    p.start();
    p.update(100, 250);
    p.update(250, 250);
    p.finish(250, 1234);
    expect(logger.info.mock.calls).toEqual([
      [{ language: 'es' }, 'Indexing events [es]'],
      [{ language: 'es', count: 250, ms: 1234 }, 'Indexed 250 events [es] in 1234 ms'],
    ]);
  });
});
