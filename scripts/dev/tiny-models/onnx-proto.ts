// A minimal protobuf encoder for the few ONNX messages a tiny inference graph needs.
// Field numbers follow onnx/onnx.proto (IR version 8): ModelProto, GraphProto, NodeProto,
// AttributeProto, TensorProto, ValueInfoProto, TypeProto, TensorShapeProto, OperatorSetIdProto.
// Encoding only; no decoder. Output is deterministic (fields in a fixed order).

const WIRE_VARINT = 0;
const WIRE_LEN = 2;
const WIRE_FIXED32 = 5;

/** TensorProto.DataType values used here. */
export const OnnxDataType = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7 } as const;
export type OnnxDataTypeCode = (typeof OnnxDataType)[keyof typeof OnnxDataType];

const ATTR_FLOAT = 1;
const ATTR_INT = 2;
const ATTR_FLOATS = 6;
const ATTR_INTS = 7;

const utf8 = new TextEncoder();

/** Appends protobuf fields to a growing list of byte chunks. */
class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
  }

  private tag(field: number, wire: number): void {
    this.push(encodeVarint(BigInt(field) * 8n + BigInt(wire)));
  }

  /** int64 / int32 / enum field; negative values use the 10-byte two's complement form. */
  varint(field: number, value: number | bigint): this {
    this.tag(field, WIRE_VARINT);
    this.push(encodeVarint(BigInt.asUintN(64, BigInt(value))));
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, WIRE_LEN);
    this.push(encodeVarint(BigInt(value.length)));
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, utf8.encode(value));
  }

  float32(field: number, value: number): this {
    this.tag(field, WIRE_FIXED32);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
    return this;
  }

  finish(): Uint8Array {
    const total = this.chunks.reduce((n, c) => n + c.length, 0);
    const out = new Uint8Array(total);
    let offset = 0;
    for (const c of this.chunks) {
      out.set(c, offset);
      offset += c.length;
    }
    return out;
  }
}

function encodeVarint(value: bigint): Uint8Array {
  const bytes: number[] = [];
  let v = value;
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v > 0n);
  return Uint8Array.from(bytes);
}

export type TensorData = Float32Array | Int8Array | Uint8Array | Int32Array | BigInt64Array;

export interface TensorSpec {
  name: string;
  dims: readonly number[];
  dataType: OnnxDataTypeCode;
  data: TensorData;
}

/** Little-endian bytes of a typed array, independent of the host's byte order. */
function rawData(data: TensorData): Uint8Array {
  if (data instanceof Int8Array || data instanceof Uint8Array)
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
  const out = new Uint8Array(data.byteLength);
  const view = new DataView(out.buffer);
  if (data instanceof Float32Array) data.forEach((x, i) => view.setFloat32(i * 4, x, true));
  else if (data instanceof Int32Array) data.forEach((x, i) => view.setInt32(i * 4, x, true));
  else data.forEach((x, i) => view.setBigInt64(i * 8, x, true));
  return out;
}

const ELEMENT_TYPE: Record<OnnxDataTypeCode, string> = {
  [OnnxDataType.FLOAT]: "Float32Array",
  [OnnxDataType.UINT8]: "Uint8Array",
  [OnnxDataType.INT8]: "Int8Array",
  [OnnxDataType.INT32]: "Int32Array",
  [OnnxDataType.INT64]: "BigInt64Array",
};

export function encodeTensor(t: TensorSpec): Uint8Array {
  const count = t.dims.reduce((n, d) => n * d, 1);
  if (count !== t.data.length) {
    throw new RangeError(`tensor ${t.name}: dims ${JSON.stringify(t.dims)} need ${count} values, got ${t.data.length}`);
  }
  if (t.data.constructor.name !== ELEMENT_TYPE[t.dataType]) {
    throw new TypeError(
      `tensor ${t.name}: data type ${t.dataType} needs a ${ELEMENT_TYPE[t.dataType]}, got ${t.data.constructor.name}`,
    );
  }
  const w = new ProtoWriter();
  for (const d of t.dims) w.varint(1, d); // dims
  w.varint(2, t.dataType); // data_type
  w.string(8, t.name); // name
  w.bytes(9, rawData(t.data)); // raw_data
  return w.finish();
}

export type AttributeValue =
  { int: number } | { float: number } | { ints: readonly number[] } | { floats: readonly number[] };

function encodeAttribute(name: string, value: AttributeValue): Uint8Array {
  const w = new ProtoWriter().string(1, name);
  if ("int" in value) w.varint(20, ATTR_INT).varint(3, value.int);
  else if ("float" in value) w.varint(20, ATTR_FLOAT).float32(2, value.float);
  else if ("ints" in value) {
    w.varint(20, ATTR_INTS);
    for (const x of value.ints) w.varint(8, x);
  } else {
    w.varint(20, ATTR_FLOATS);
    for (const x of value.floats) w.float32(7, x);
  }
  return w.finish();
}

export interface NodeSpec {
  opType: string;
  inputs: readonly string[];
  outputs: readonly string[];
  name?: string;
  attributes?: Readonly<Record<string, AttributeValue>>;
}

function encodeNode(n: NodeSpec): Uint8Array {
  const w = new ProtoWriter();
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  if (n.name) w.string(3, n.name);
  w.string(4, n.opType);
  for (const [key, value] of Object.entries(n.attributes ?? {})) w.bytes(5, encodeAttribute(key, value));
  return w.finish();
}

export interface ValueInfoSpec {
  name: string;
  elemType: OnnxDataTypeCode;
  /** A number is a fixed size, a string a named dynamic dimension. */
  shape: readonly (number | string)[];
}

function encodeValueInfo(v: ValueInfoSpec): Uint8Array {
  const shape = new ProtoWriter();
  for (const d of v.shape) {
    const dim = new ProtoWriter();
    if (typeof d === "number") dim.varint(1, d);
    else dim.string(2, d);
    shape.bytes(1, dim.finish());
  }
  const tensorType = new ProtoWriter().varint(1, v.elemType).bytes(2, shape.finish());
  const typeProto = new ProtoWriter().bytes(1, tensorType.finish());
  return new ProtoWriter().string(1, v.name).bytes(2, typeProto.finish()).finish();
}

export interface GraphSpec {
  name: string;
  nodes: readonly NodeSpec[];
  initializers: readonly TensorSpec[];
  inputs: readonly ValueInfoSpec[];
  outputs: readonly ValueInfoSpec[];
}

export interface ModelSpec {
  graph: GraphSpec;
  /** Default-domain opset version. */
  opsetVersion: number;
  irVersion?: number;
  producerName?: string;
  producerVersion?: string;
  docString?: string;
  metadata?: Readonly<Record<string, string>>;
}

/** Serialises an ONNX ModelProto. */
export function encodeModel(m: ModelSpec): Uint8Array {
  const g = new ProtoWriter();
  for (const n of m.graph.nodes) g.bytes(1, encodeNode(n));
  g.string(2, m.graph.name);
  for (const t of m.graph.initializers) g.bytes(5, encodeTensor(t));
  for (const i of m.graph.inputs) g.bytes(11, encodeValueInfo(i));
  for (const o of m.graph.outputs) g.bytes(12, encodeValueInfo(o));

  const w = new ProtoWriter().varint(1, m.irVersion ?? 8);
  if (m.producerName) w.string(2, m.producerName);
  if (m.producerVersion) w.string(3, m.producerVersion);
  if (m.docString) w.string(6, m.docString);
  w.bytes(7, g.finish());
  w.bytes(8, new ProtoWriter().string(1, "").varint(2, m.opsetVersion).finish());
  for (const [key, value] of Object.entries(m.metadata ?? {})) {
    w.bytes(14, new ProtoWriter().string(1, key).string(2, value).finish());
  }
  return w.finish();
}
