// The module Worker script of mode 'worker' in browsers (see host.js).
import * as web from './platform-web.js';
import { setPlatform } from './platform.js';
import { runHost } from './host.js';

setPlatform(web);
runHost();
