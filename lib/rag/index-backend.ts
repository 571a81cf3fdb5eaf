// What VectorIndex needs from a vector-search library: FAISS for exact search (faiss-flat.ts),
// USearch for the approximate HNSW graph (hnsw-usearch.ts). Vectors arrive checked and row-major.

export interface SearchHit {
  /** Position of the vector in insertion order. */
  id: number;
  /** Inner product (ip) or squared L2 distance (l2), as FAISS reports it. */
  score: number;
}

export interface IndexBackend {
  /** Number of stored vectors. */
  size(): number;
  /** Appends `count` vectors (ids continue from size); `fill` writes them into the array it is given. */
  add(count: number, fill: (rows: Float32Array) => void): void;
  /** Up to k hits per query (queries row-major, `count` of them), best first. */
  search(queries: Float32Array, count: number, k: number): SearchHit[][];
  save(file: string): void;
}
