// `tessera-wasm/worker`: the script of mode 'worker' (lib/worker-host-web.js,
// or worker-host-node.js under Node). It is run as a Worker, never imported
// for values, so it exports nothing; its URL is what a `workerUrl` takes.
export {};
