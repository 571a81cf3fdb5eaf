// Exact search with FAISS (faiss-node): IndexFlatIP for inner product, IndexFlatL2 for squared L2.
// Vectors go in through the typed-array path of flat-layout.ts when this addon writes the layout it
// expects, else through faiss-node's own (slow, number-by-number) `add`.
import faiss from "faiss-node";
import { appendFlat, flatLayoutMatches, type FlatMetric } from "./flat-layout.js";
import type { IndexBackend, SearchHit } from "./index-backend.js";

type FaissIndex = InstanceType<typeof faiss.Index>;

export class FaissFlat implements IndexBackend {
  private constructor(
    private index: FaissIndex,
    private readonly metric: FlatMetric,
  ) {}

  static create(dimension: number, metric: FlatMetric): FaissFlat {
    return new FaissFlat(metric === "ip" ? new faiss.IndexFlatIP(dimension) : new faiss.IndexFlatL2(dimension), metric);
  }

  /** Reads an index file; throws FAISS' own error for anything that is not one. */
  static read(file: string, metric: FlatMetric): FaissFlat {
    return new FaissFlat(faiss.Index.read(file), metric);
  }

  get dimension(): number {
    return this.index.getDimension();
  }

  size(): number {
    return this.index.ntotal();
  }

  add(count: number, fill: (rows: Float32Array) => void): void {
    if (flatLayoutMatches(this.metric)) {
      this.index = appendFlat(this.index, this.metric, count, fill);
      return;
    }
    const rows = new Float32Array(count * this.dimension);
    fill(rows);
    this.index.add(Array.from(rows));
  }

  search(queries: Float32Array, count: number, k: number): SearchHit[][] {
    const { distances, labels } = this.index.search(Array.from(queries), k);
    return Array.from({ length: count }, (_, q) => {
      const hits: SearchHit[] = [];
      for (let i = q * k; i < (q + 1) * k; i++) {
        const id = labels[i] ?? -1;
        if (id >= 0) hits.push({ id, score: distances[i] ?? Number.NaN });
      }
      return hits;
    });
  }

  save(file: string): void {
    this.index.write(file);
  }
}
