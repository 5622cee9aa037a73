// The host glue in use: platform-node.js or platform-web.js, installed by the
// entry point (index.node.js through the package's "node" export
// condition, index.js elsewhere; the worker hosts likewise). A live binding,
// read at call time.
export let platform = null;

export function setPlatform(p) {
  platform = p;
}
