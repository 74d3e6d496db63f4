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
