// How the in-process LRUs are bounded by a count of entries, and how those with a ttl read the clock.

/**
 * lru-cache options that hold at most `n` entries, each counted as a size of 1. Not `max`: lru-cache allocates the
 * arrays of `max` entries when the cache is made (100 000 keys took 19 ms of the start's longest task, while /live
 * and /ready waited; issue 33); `maxSize` grows them as entries come.
 */
export const countBound = (n: number) => ({ maxSize: n, sizeCalculation: () => 1 });

/**
 * lru-cache options for a cache with a `ttl`: its staleness checks read the clock (`performance.now()`, tens of ns)
 * each time. By default (`ttlResolution` 1) lru-cache keeps the time it read for 1 ms and arms a 1 ms timer to forget
 * it, whenever the kept time has expired: at a steady 2000 cached reads a second each read arms one, and each timer
 * wakes the event loop 1 ms later only to clear it. The gateway's main thread took 73.1 µs of CPU a cached read
 * against 59.8 µs for a bare handler in the same process (bench:ceiling-paced's setting; issue 33).
 */
export const EXACT_CLOCK = { ttlResolution: 0 } as const;
