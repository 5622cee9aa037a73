// Spare ArrayBuffers of this thread, for the copies that cross between
// threads without shared memory (worker mode's arguments, the message
// pool's blocks). A copy into a fresh ArrayBuffer pays for the fresh
// pages: in Chromium, on an AMD EPYC VM, a 4 MB copy into a fresh buffer
// took tens of times one into a buffer used before (docs/benchmarks.md).
// So the side that has finished with a copy sends its buffer back with the
// reply, and the next copy is made into it.
//
// A spare is taken only for an array of at least half its size, so a
// small call does not carry a large buffer. The store is bounded: a
// thread holds at most kMostBuffers spares and kMostBytes in all (the
// oldest are dropped first), so buffers never pile up.
const kMostBuffers = 8;
const kMostBytes = 64 << 20;
const spares = [];
let spareBytes = 0;

// Whether a buffer of `size` bytes may carry an array of `bytes` (at least
// half the buffer, so a small array does not carry a large buffer).
export const spareFits = (size, bytes) => bytes > 0 && size >= bytes && size <= 2 * bytes;

// A view of `length` elements of `Type` on a spare buffer, or null.
function takeSpare(Type, length) {
  const bytes = length * Type.BYTES_PER_ELEMENT;
  let best = -1;
  for (let i = 0; i < spares.length; ++i) {
    const size = spares[i].byteLength;
    if (spareFits(size, bytes) && (best < 0 || size < spares[best].byteLength)) best = i;
  }
  if (best < 0) return null;
  const [buffer] = spares.splice(best, 1);
  spareBytes -= buffer.byteLength;
  return new Type(buffer, 0, length);
}

// A copy of typed array x's elements: on a spare buffer where one fits,
// else a fresh one.
export function copyOf(x) {
  const view = takeSpare(x.constructor, x.length);
  if (view === null) return x.slice();
  view.set(x);
  return view;
}

// Keeps `buffer` (a plain ArrayBuffer this thread owns and nothing else
// refers to) for a later copy.
export function giveSpare(buffer) {
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength === 0 || buffer.byteLength > kMostBytes) return;
  if (spares.includes(buffer)) return;  // a transfer list may name a buffer once only
  spares.push(buffer);
  spareBytes += buffer.byteLength;
  while (spares.length > kMostBuffers || spareBytes > kMostBytes) spareBytes -= spares.shift().byteLength;
}

// Every spare, given up (to be transferred to another thread).
export function drainSpares() {
  const all = spares.splice(0, spares.length);
  spareBytes = 0;
  return all;
}
