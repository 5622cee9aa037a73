// The JavaScript package's module has no code of its own: it is the tessera
// library behind its C API (wasm/js/bindings.json lists what is exported).
// This file only gives the link a translation unit.
