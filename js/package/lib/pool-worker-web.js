// The module Worker of a message-passing pool's helper in browsers (see
// message-pool.js): the same host as worker-host-web.js, in a file of its
// own so that bundlers give it a chunk of its own. It starts no workers
// (a helper runs one thread), so its graph holds none.
import * as web from './platform-web.js';
import { setPlatform } from './platform.js';
import { runHost } from './host.js';

setPlatform(web);
runHost();
