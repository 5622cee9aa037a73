// The module Worker script of mode 'worker' in browsers (see host.js).
import * as web from './platform-web.js';
import { setPlatform } from './platform.js';
import { runHost } from './host.js';

setPlatform(web);
// The host starts the message pool's helpers, never another host.
web.addWorkerStarters({
  pool: () => new Worker(new URL('./pool-worker-web.js', import.meta.url), { type: 'module', name: 'tessera-pool' }),
});
runHost();
