// Two gateways on a local Redis Cluster (3 masters, 3 replicas): a master killed under load (redis-ha-suite.ts).
import { failoverSuite } from './redis-ha-suite.ts';

failoverSuite('a Redis Cluster');
