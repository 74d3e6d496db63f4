// How the in-process LRUs are bounded by a count of entries.

/**
 * lru-cache options that hold at most `n` entries, each counted as a size of 1. Not `max`: lru-cache allocates the
 * arrays of `max` entries when the cache is made (100 000 keys took 19 ms of the start's longest task, while /live
 * and /ready waited; issue 33); `maxSize` grows them as entries come.
 */
export const countBound = (n: number) => ({ maxSize: n, sizeCalculation: () => 1 });
