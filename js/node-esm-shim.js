// --extern-pre-js of the JavaScript package's module: Emscripten 3.1.6's
// ES6 output still calls require() and reads __dirname/__filename when it
// runs under Node, which an ES module does not have. Defined here once,
// under Node only: browsers and workers never run the branch (and a
// dynamic import of a node: module is never fetched there). No bundler
// reads this file: the package imports the module from its URL at run time
// (lib/package-files.js), so the comments below only matter to someone
// bundling the module on their own.
var require, __filename, __dirname;
if (typeof process === 'object' && process.versions && process.versions.node) {
  require = (await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:module'))
    .createRequire(import.meta.url);
  __filename = require('node:url').fileURLToPath(import.meta.url);
  __dirname = require('node:path').dirname(__filename);
}
