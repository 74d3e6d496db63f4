// A UTC wall clock, `Y-m-d H:i:s`: how WordPress writes its `*_gmt` stamps and the gateway stores `recurrence_id` and
// `original_start_utc`. One codec for every part that turns it into epoch ms or back. Pure.

/** An instant (epoch ms) as a UTC `Y-m-d H:i:s`. */
export const utcWallOf = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** A UTC `Y-m-d H:i:s` (or ISO `Y-m-dTH:i:s`, as wp/v2 answers it) as epoch ms; NaN for `''` or not a time. */
export const msOfUtcWall = (wall: string): number => Date.parse(`${wall.replace(' ', 'T')}Z`);
