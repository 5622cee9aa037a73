// One-node ONNX models, encoded by hand (the protobuf wire format of
// onnx.proto's ModelProto), so tests and benchmarks run onnxruntime-web's
// kernels without model files: MatMul (float), MatMulInteger and
// QLinearMatMul, every input a graph input (fed per run).
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

// TensorProto.DataType.
export const onnxTypes = { float32: 1, uint8: 2, int8: 3, int32: 6 };

const tensorType = (type, dims) =>
  bytes(1, [...int(1, onnxTypes[type]), ...bytes(2, dims.flatMap((d) => bytes(1, int(1, d))))]);
const valueInfo = ([name, type, dims]) => [...str(1, name), ...bytes(2, tensorType(type, dims))];

// A model of one node `op` from inputs to outputs, each [name, type, dims].
function oneNodeModel(op, inputs, outputs) {
  const node = [...inputs.flatMap(([name]) => str(1, name)), ...outputs.flatMap(([name]) => str(2, name)),
                ...str(4, op)];
  const graph = [
    ...bytes(1, node), ...str(2, op.toLowerCase()),
    ...inputs.flatMap((v) => bytes(11, valueInfo(v))), ...outputs.flatMap((v) => bytes(12, valueInfo(v))),
  ];
  const model = [...int(1, 8), ...bytes(8, [...str(1, ''), ...int(2, 13)]), ...bytes(7, graph)];
  return Uint8Array.from(model);
}

// C = MatMul(A, B), A m x k and B k x n, float.
export function matmulModel(m, n, k) {
  return oneNodeModel('MatMul', [['A', 'float32', [m, k]], ['B', 'float32', [k, n]]],
                      [['C', 'float32', [m, n]]]);
}

// Y (int32) = MatMulInteger(A, B, a_zero_point, b_zero_point): A aType m x
// k, B bType k x n, zero points scalars or (perColumn) B's of shape [1, n].
export function matmulIntegerModel(m, n, k, { aType = 'uint8', bType = 'int8', perColumn = false } = {}) {
  const zb = perColumn ? [1, n] : [];
  return oneNodeModel('MatMulInteger', [
    ['A', aType, [m, k]], ['B', bType, [k, n]], ['a_zero_point', aType, []], ['b_zero_point', bType, zb],
  ], [['Y', 'int32', [m, n]]]);
}

// Y = QLinearMatMul(a, a_scale, a_zero_point, b, b_scale, b_zero_point,
// y_scale, y_zero_point): b's scale and zero point scalars or (perColumn)
// of shape [1, n].
export function qlinearMatmulModel(m, n, k, { aType = 'uint8', bType = 'int8', yType = 'uint8',
                                             perColumn = false } = {}) {
  const q = perColumn ? [1, n] : [];
  return oneNodeModel('QLinearMatMul', [
    ['a', aType, [m, k]], ['a_scale', 'float32', []], ['a_zero_point', aType, []],
    ['b', bType, [k, n]], ['b_scale', 'float32', q], ['b_zero_point', bType, q],
    ['y_scale', 'float32', []], ['y_zero_point', yType, []],
  ], [['y', yType, [m, n]]]);
}
