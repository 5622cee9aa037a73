// The worker_threads script of mode 'worker' in Node (see host.js).
import * as node from './platform-node.js';
import { setPlatform } from './platform.js';
import { runHost } from './host.js';

setPlatform(node);
runHost();
