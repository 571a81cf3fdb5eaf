// A `node --test` reporter for the unit stage: how long each test file ran (from its start to its last
// event), as JSON lines `{"file": …, "seconds": …}`. scripts/dev/test.ts prints the slowest ones. Plain
// JavaScript: node loads reporters before tsx.

/** @param {AsyncIterable<{ type: string; data?: { file?: string; name?: string } }>} source */
export default async function* fileTimes(source) {
  const started = new Map();
  const last = new Map();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file) continue;
    if (event.type === "test:dequeue" && event.data?.name === file) started.set(file, performance.now());
    last.set(file, performance.now());
  }
  for (const [file, start] of started)
    yield `${JSON.stringify({ file, seconds: ((last.get(file) ?? start) - start) / 1000 })}\n`;
}
