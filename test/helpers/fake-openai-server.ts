// A local OpenAI-compatible chat server on 127.0.0.1 for testing the HTTP backend.
// `replies` are served in order (the last one repeats); each is streamed as SSE chunks, or sent as one
// JSON completion when the request has `stream: false` (native tool calls).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeReply =
  | { kind: "text"; text: string; promptTokens?: number; cachedTokens?: number }
  | { kind: "status"; status: number; body: string }
  | { kind: "garbage" }
  /** Never answers (until close): for request timeouts. */
  | { kind: "silent" }
  /** Native function calling: answered as one JSON completion (the request must not stream). */
  | { kind: "tool_calls"; calls: { name: string; arguments: string }[]; text?: string; promptTokens?: number };

export interface FakeOpenAiServer {
  baseUrl: string;
  requests: Record<string, unknown>[];
  /** The HTTP headers of each request, in the order of `requests`. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startFakeOpenAiServer(replies: FakeReply[]): Promise<FakeOpenAiServer> {
  const requests: Record<string, unknown>[] = [];
  const headers: IncomingHttpHeaders[] = [];
  let served = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404).end("not found");
        return;
      }
      requests.push(JSON.parse(body) as Record<string, unknown>);
      headers.push(req.headers);
      const reply = replies[Math.min(served++, replies.length - 1)]!;
      if (reply.kind === "silent") return;
      if (reply.kind === "status") {
        res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
        return;
      }
      const request = requests.at(-1)!;
      if (request.stream === false && (reply.kind === "tool_calls" || reply.kind === "text")) {
        const calls = reply.kind === "tool_calls" ? reply.calls : [];
        const message = {
          role: "assistant",
          content: reply.text ?? null,
          tool_calls: calls.length ? calls.map((c, i) => ({ id: `fake_${served}_${i}`, type: "function", function: c })) : undefined,
        };
        const usage = { prompt_tokens: reply.promptTokens ?? 20, completion_tokens: 5 };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ choices: [{ index: 0, message, finish_reason: calls.length ? "tool_calls" : "stop" }], usage }));
        return;
      }
      if (reply.kind === "tool_calls") {
        res.writeHead(400, { "content-type": "application/json" }).end('{"error":"tool_calls replies need stream: false"}');
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (reply.kind === "garbage") {
        res.end("data: {not json\n\n");
        return;
      }
      const pieces = reply.text.match(/.{1,4}/gs) ?? [];
      for (const p of pieces) res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: p } }] })}\n\n`);
      const usage = {
        prompt_tokens: reply.promptTokens ?? 20,
        completion_tokens: pieces.length,
        prompt_tokens_details: { cached_tokens: reply.cachedTokens ?? 0 },
      };
      res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
