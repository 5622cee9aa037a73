// Loaded by index.html under every header profile: the package as a page
// imports it (no bundler), plus the seeded inputs of the hash tests.
import * as tessera from '../pkg/index.js';
import * as support from '../support/support.mjs';

window.tessera = tessera;
window.support = support;
window.harnessReady = true;
document.getElementById('status').textContent = 'ready';
