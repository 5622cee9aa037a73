// A one-node ONNX model, C = MatMul(A, B) with A m x k and B k x n (float),
// encoded by hand (the protobuf wire format of onnx.proto's ModelProto), so
// the benchmark measures onnxruntime-web's MatMul kernel without a model file.
const varint = (n) => {
  const out = [];
  let v = BigInt(n);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return out;
};
const field = (number, wire, payload) => [...varint((number << 3) | wire), ...payload];
const int = (number, v) => field(number, 0, varint(v));
const bytes = (number, content) => field(number, 2, [...varint(content.length), ...content]);
const str = (number, s) => bytes(number, [...new TextEncoder().encode(s)]);

const tensorType = (dims) =>
  bytes(1, [...int(1, 1), ...bytes(2, dims.flatMap((d) => bytes(1, int(1, d))))]);  // FLOAT, shape
const valueInfo = (name, dims) => [...str(1, name), ...bytes(2, tensorType(dims))];

export function matmulModel(m, n, k) {
  const node = [...str(1, 'A'), ...str(1, 'B'), ...str(2, 'C'), ...str(4, 'MatMul')];
  const graph = [
    ...bytes(1, node), ...str(2, 'matmul'),
    ...bytes(11, valueInfo('A', [m, k])), ...bytes(11, valueInfo('B', [k, n])),
    ...bytes(12, valueInfo('C', [m, n])),
  ];
  const model = [...int(1, 8), ...bytes(8, [...str(1, ''), ...int(2, 13)]), ...bytes(7, graph)];
  return Uint8Array.from(model);
}
