// A tessera-free worker that answers one message (worker-teardown.mjs).
self.onmessage = () => self.postMessage('ready');
