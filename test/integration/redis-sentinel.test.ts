// Two gateways on a local Sentinel set (master, replica, 3 sentinels): the master killed under load (redis-ha-suite.ts).
import { failoverSuite } from './redis-ha-suite.ts';

failoverSuite('Redis Sentinel');
