// Redis as the stores shared by every instance use it (the response cache, idempotency keys, password guesses, the
// undo journal, change-notification replays): its commands, whether it is up now, and this deployment's key prefix.
import type { RedisClient } from './cache/redis.ts';

export interface SharedRedis {
  /** One Redis or a cluster: every caller's command touches one key. */
  readonly cmd: RedisClient;
  /** Whether `cmd` is connected and ready now; when false, stores keep to this process instead of waiting. */
  readonly up: () => boolean;
  readonly prefix: string;
}

/** Deletes lock KEYS[1] if it still holds ARGV[1] (its holder's token): a holder whose lease ended frees no other's. */
export const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
