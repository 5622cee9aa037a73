import { platform } from './platform.js';

import { TesseraError } from './errors.js';
import { validateOptions } from './options.js';
// Static imports: a Service Worker allows no dynamic import().
import { loadInline } from './inline.js';
import { loadInWorker } from './worker-client.js';

// load(options): validates the options, then loads the module inline or in a
// dedicated Worker ('auto': a Worker on a window's main thread, inline
// elsewhere). Never throws synchronously: every failure rejects the promise
// with a TesseraError.
export async function load(options) {
  const o = validateOptions(options);
  const mode = o.mode === 'auto' ? (platform.isWindowMainThread ? 'worker' : 'inline') : o.mode;
  if (mode === 'worker') return loadInWorker(o);
  return loadInline(o, 'inline');
}

export { TesseraError };
