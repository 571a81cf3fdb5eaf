// A small unified line diff for approval previews (no diff library is installed in the kit).
// Longest common subsequence over lines, then hunks with `context` unchanged lines around changes.
// Pure; inputs are capped so a preview never costs more than a few million table cells.

export interface LineDiffOptions {
  /** Unchanged lines shown around each change (default 3). */
  context?: number;
  /** Label of the old side (default "a/<path>", "/dev/null" for a new file). */
  fromLabel?: string;
  toLabel?: string;
}

type Op = { kind: " " | "-" | "+"; line: string; oldNo: number; newNo: number };

const MAX_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function diffOps(a: string[], b: string[]): Op[] {
  // Common prefix and suffix first: typical edits touch a few lines in the middle.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const ops: Op[] = [];
  for (let i = 0; i < start; i++) ops.push({ kind: " ", line: a[i] ?? "", oldNo: i + 1, newNo: i + 1 });
  let i = 0;
  let j = 0;
  if ((midA.length + 1) * (midB.length + 1) <= MAX_CELLS) {
    const w = midB.length + 1;
    const lcs = new Uint32Array((midA.length + 1) * w);
    for (let x = midA.length - 1; x >= 0; x--) {
      for (let y = midB.length - 1; y >= 0; y--) {
        lcs[x * w + y] =
          midA[x] === midB[y]
            ? (lcs[(x + 1) * w + y + 1] ?? 0) + 1
            : Math.max(lcs[(x + 1) * w + y] ?? 0, lcs[x * w + y + 1] ?? 0);
      }
    }
    while (i < midA.length && j < midB.length) {
      if (midA[i] === midB[j]) {
        ops.push({ kind: " ", line: midA[i] ?? "", oldNo: start + i + 1, newNo: start + j + 1 });
        i++;
        j++;
      } else if ((lcs[(i + 1) * w + j] ?? 0) >= (lcs[i * w + j + 1] ?? 0)) {
        ops.push({ kind: "-", line: midA[i] ?? "", oldNo: start + i + 1, newNo: start + j });
        i++;
      } else {
        ops.push({ kind: "+", line: midB[j] ?? "", oldNo: start + i, newNo: start + j + 1 });
        j++;
      }
    }
  }
  for (; i < midA.length; i++) ops.push({ kind: "-", line: midA[i] ?? "", oldNo: start + i + 1, newNo: start + j });
  for (; j < midB.length; j++) ops.push({ kind: "+", line: midB[j] ?? "", oldNo: start + i, newNo: start + j + 1 });
  for (let k = 0; k < a.length - endA; k++)
    ops.push({ kind: " ", line: a[endA + k] ?? "", oldNo: endA + k + 1, newNo: endB + k + 1 });
  return ops;
}

function range(startNo: number, count: number): string {
  // Unified-diff convention: an empty side is "start,0" with start the line before it.
  return count === 1 ? `${startNo}` : `${startNo},${count}`;
}

/** Unified diff of two texts ("" when they are equal). */
export function unifiedDiff(before: string, after: string, path: string, options: LineDiffOptions = {}): string {
  const context = options.context ?? 3;
  const ops = diffOps(splitLines(before), splitLines(after));
  const changed = ops.map((op, index) => (op.kind === " " ? -1 : index)).filter((index) => index >= 0);
  if (changed.length === 0) return "";
  const out = [
    `--- ${options.fromLabel ?? (before === "" ? "/dev/null" : `a/${path}`)}`,
    `+++ ${options.toLabel ?? `b/${path}`}`,
  ];
  let k = 0;
  while (k < changed.length) {
    const first = changed[k] ?? 0;
    let last = first;
    while (k + 1 < changed.length && (changed[k + 1] ?? 0) - last <= 2 * context + 1) last = changed[++k] ?? last;
    k++;
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length - 1, last + context);
    const hunk = ops.slice(from, to + 1);
    const oldCount = hunk.filter((op) => op.kind !== "+").length;
    const newCount = hunk.filter((op) => op.kind !== "-").length;
    // Start lines: the first line the side has in the hunk; for an empty side, the line before it.
    const oldStart = (hunk.find((op) => op.kind !== "+") ?? hunk[0])?.oldNo ?? 0;
    const newStart = (hunk.find((op) => op.kind !== "-") ?? hunk[0])?.newNo ?? 0;
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
  }
  return out.join("\n");
}
