// A tessera-free worker that starts two nested workers and later terminates
// them, as a worker-hosted tessera instance does with its pthread workers
// (worker-teardown.mjs).
let children = [];
self.onmessage = async (event) => {
  if (event.data === 'start') {
    for (let i = 0; i < 2; ++i) {
      const child = new Worker('control-leaf-worker.js', { type: 'module' });
      await new Promise((resolve) => { child.onmessage = resolve; child.postMessage('hello'); });
      children.push(child);
    }
  } else {
    for (const child of children) child.terminate();
    children = [];
  }
  self.postMessage(event.data);
};
