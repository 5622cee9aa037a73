// --extern-pre-js of the JavaScript package's module: Emscripten 3.1.6's
// ES6 output still calls require() and reads __dirname/__filename when it
// runs under Node, which an ES module does not have. Declared here, at the
// module's top level, and filled in by module-pre.js when the module is
// instantiated under Node. No top-level await and no import of a node:
// module: Service Workers refuse modules with top-level await, Vite's
// worker builds (IIFE) cannot hold it, and a bundler for the web cannot
// resolve node: modules.
var require, __filename, __dirname;
