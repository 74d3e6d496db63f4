// Redis as the stores shared by every instance use it (the response cache, idempotency keys, password guesses, the
// undo journal, change-notification replays): its commands, whether it is up now, and this deployment's key prefix.
import type { Redis } from 'ioredis';

export interface SharedRedis {
  readonly cmd: Redis;
  /** Whether `cmd` is connected and ready now; when false, stores keep to this process instead of waiting. */
  readonly up: () => boolean;
  readonly prefix: string;
}
