/**
 * @module test/helpers/onnx-builder
 * A minimal ONNX protobuf encoder for tests: builds a token-embedding "model" that looks like a
 * BERT sentence-embedding export from the outside (inputs `input_ids`, `attention_mask`,
 * `token_type_ids` as int64 [batch, seq]; output `last_hidden_state` float [batch, seq, dims])
 * and inside is `Gather(embedding, input_ids)` (+ `Gather(typeEmbedding, token_type_ids)`).
 * Field numbers follow onnx/onnx.proto (IR version 8, opset 13).
 */

const enum Wire {
  Varint = 0,
  Bytes = 2,
}
const FLOAT = 1;
const INT64 = 7;

function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n; // two's complement for negative int64
  const out: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return out;
}

const key = (field: number, wire: Wire) => varint((field << 3) | wire);
const int = (field: number, n: number | bigint) => [...key(field, Wire.Varint), ...varint(n)];
const bytes = (field: number, b: ArrayLike<number>) => [
  ...key(field, Wire.Bytes),
  ...varint(b.length),
  ...Array.from(b),
];
const str = (field: number, s: string) => bytes(field, new TextEncoder().encode(s));
const msg = (field: number, ...parts: number[][]) => bytes(field, parts.flat());

/** ValueInfoProto for a tensor with named (`'batch'`) or fixed (`4`) dimensions. */
function valueInfo(name: string, elemType: number, dims: (string | number)[]): number[] {
  const shape = dims.map((d) => msg(1, typeof d === 'number' ? int(1, d) : str(2, d)));
  return [...str(1, name), ...msg(2, msg(1, int(1, elemType), msg(2, ...shape)))];
}

/** TensorProto initializer holding a float matrix as little-endian raw data. */
function floatInitializer(name: string, rows: number[][]): number[] {
  const cols = rows[0]?.length ?? 0;
  const data = new Float32Array(rows.flat());
  return [
    ...int(1, rows.length),
    ...int(1, cols),
    ...int(2, FLOAT),
    ...str(8, name),
    ...bytes(9, new Uint8Array(data.buffer)),
  ];
}

const node = (op: string, inputs: string[], outputs: string[], name: string) => [
  ...inputs.flatMap((i) => str(1, i)),
  ...outputs.flatMap((o) => str(2, o)),
  ...str(3, name),
  ...str(4, op),
];

/** What {@link buildEmbeddingModel} builds. */
export interface TinyModelSpec {
  /** Token embedding matrix [vocab][dims]. */
  embedding: number[][];
  /** Optional token-type embedding [types][dims], added to the token embedding. */
  typeEmbedding?: number[][];
  /** Declared graph inputs. Default `['input_ids', 'attention_mask', 'token_type_ids']`. */
  inputs?: string[];
  /** Name of the output. Default `last_hidden_state`. */
  outputName?: string;
}

/** Serialises the model to ONNX protobuf bytes. */
export function buildEmbeddingModel(spec: TinyModelSpec): Uint8Array {
  const dims = spec.embedding[0]?.length ?? 0;
  const inputs = spec.inputs ?? ['input_ids', 'attention_mask', 'token_type_ids'];
  const output = spec.outputName ?? 'last_hidden_state';
  const nodes: number[][] = [];
  const inits: number[][] = [floatInitializer('embedding', spec.embedding)];
  if (spec.typeEmbedding) {
    inits.push(floatInitializer('type_embedding', spec.typeEmbedding));
    nodes.push(node('Gather', ['embedding', 'input_ids'], ['tok'], 'gather_tokens'));
    nodes.push(node('Gather', ['type_embedding', 'token_type_ids'], ['typ'], 'gather_types'));
    nodes.push(node('Add', ['tok', 'typ'], [output], 'add'));
  } else {
    nodes.push(node('Gather', ['embedding', 'input_ids'], [output], 'gather_tokens'));
  }
  const graph = [
    ...nodes.flatMap((n) => msg(1, n)),
    ...str(2, 'tiny_sentence_encoder'),
    ...inits.flatMap((i) => msg(5, i)),
    ...inputs.flatMap((name) => msg(11, valueInfo(name, INT64, ['batch', 'sequence']))),
    ...msg(12, valueInfo(output, FLOAT, ['batch', 'sequence', dims])),
  ];
  const model = [...int(1, 8), ...str(2, 'loci-test'), ...msg(7, graph), ...msg(8, str(1, ''), int(2, 13))];
  return Uint8Array.from(model);
}
