// What this application passes to load() besides threads and mode: nothing
// for bundlers that copy the package's files themselves (Vite, webpack);
// the esbuild build writes its own version (bundlers.test.mjs).
export const tesseraOptions = {};
