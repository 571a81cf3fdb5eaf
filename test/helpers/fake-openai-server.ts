// A local OpenAI-compatible chat server on 127.0.0.1 for testing the HTTP backend.
// `replies` are served in order (the last one repeats); each is streamed as SSE chunks, or sent as one
// JSON completion when the request has `stream: false` (native tool calls). The fault modes (drip,
// endless_event, huge_body, cut, plain_json) play a slow or misbehaving class server.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Writes `chunk` again and again, respecting backpressure, until the client goes away. */
function writeForever(res: ServerResponse, chunk: string): void {
  let closed = false;
  res.on("close", () => (closed = true));
  const pump = (): void => {
    while (!closed) if (!res.write(chunk)) return void res.once("drain", pump);
  };
  pump();
}

/** Writes `chunk` every `intervalMs` until the client goes away. */
function drip(res: ServerResponse, chunk: string, intervalMs: number): void {
  const timer = setInterval(() => res.write(chunk), intervalMs);
  res.on("close", () => clearInterval(timer));
}

const sseToken = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;

export type FakeReply =
  | { kind: "text"; text: string; promptTokens?: number; cachedTokens?: number }
  | { kind: "status"; status: number; body: string }
  | { kind: "garbage" }
  /** Never answers (until close): for request timeouts. */
  | { kind: "silent" }
  /** Closes the connection without an answer (as a server dropping an idle keep-alive connection). */
  | { kind: "hang_up" }
  /** Native function calling: answered as one JSON completion (the request must not stream). */
  | { kind: "tool_calls"; calls: { name: string; arguments: string }[]; text?: string; promptTokens?: number }
  /** Headers at once, then one token (SSE) or one space (JSON) every `intervalMs`, never finished. */
  | { kind: "drip"; intervalMs: number }
  /** One SSE event that never ends: "data: xxxx…" without a line break, as fast as the client reads. */
  | { kind: "endless_event" }
  /** Valid events without end: one token each (SSE), or an endless JSON string (stream: false). */
  | { kind: "huge_body" }
  /** `text` streamed, then the connection ends without `data: [DONE]` and without a finish_reason. */
  | { kind: "cut"; text: string }
  /** Ignores `stream: true`: answers one JSON completion with `text`. */
  | { kind: "plain_json"; text: string }
  /** `text` streamed, then an error event `data: {"error": …}` and the end, as llama-server does mid-stream. */
  | { kind: "error_event"; text: string; error: Record<string, unknown> };

export interface FakeOpenAiServer {
  baseUrl: string;
  requests: Record<string, unknown>[];
  /** The HTTP headers of each request, in the order of `requests`. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

type FaultReply = Extract<
  FakeReply,
  { kind: "drip" | "endless_event" | "huge_body" | "cut" | "plain_json" | "error_event" }
>;
const FAULTS = new Set<FakeReply["kind"]>(["drip", "endless_event", "huge_body", "cut", "plain_json", "error_event"]);
const isFault = (reply: FakeReply): reply is FaultReply => FAULTS.has(reply.kind);

/** Answers a fault mode (`stream`: the request asked for a stream). */
function serveFault(reply: FaultReply, stream: boolean, res: ServerResponse): void {
  const sse = { "content-type": "text/event-stream" };
  const json = { "content-type": "application/json" };
  switch (reply.kind) {
    case "drip":
      res.writeHead(200, stream ? sse : json);
      return drip(res, stream ? sseToken("x") : " ", reply.intervalMs);
    case "endless_event":
      res.writeHead(200, sse).write("data: ");
      return writeForever(res, "x".repeat(64 * 1024));
    case "huge_body":
      if (stream) {
        res.writeHead(200, sse);
        writeForever(res, sseToken("x".repeat(1024)).repeat(64));
      } else {
        res.writeHead(200, json).write('{"choices":[{"message":{"content":"');
        writeForever(res, "x".repeat(64 * 1024));
      }
      return;
    case "error_event":
      res.writeHead(200, sse);
      for (const p of reply.text.match(/.{1,4}/gs) ?? []) res.write(sseToken(p));
      res.end(`data: ${JSON.stringify({ error: reply.error })}\n\n`);
      return;
    case "cut":
      res.writeHead(200, sse);
      for (const p of reply.text.match(/.{1,4}/gs) ?? []) res.write(sseToken(p));
      res.end();
      return;
    case "plain_json": {
      const message = { role: "assistant", content: reply.text };
      res.writeHead(200, json);
      res.end(
        JSON.stringify({
          choices: [{ index: 0, message, finish_reason: "stop" }],
          usage: { prompt_tokens: 20, completion_tokens: 5 },
        }),
      );
    }
  }
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
      if (reply.kind === "hang_up") {
        req.socket.destroy();
        return;
      }
      if (reply.kind === "status") {
        res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
        return;
      }
      const request = requests.at(-1)!;
      if (isFault(reply)) return serveFault(reply, request.stream !== false, res);
      if (request.stream === false && (reply.kind === "tool_calls" || reply.kind === "text")) {
        const calls = reply.kind === "tool_calls" ? reply.calls : [];
        const message = {
          role: "assistant",
          content: reply.text ?? null,
          tool_calls: calls.length
            ? calls.map((c, i) => ({ id: `fake_${served}_${i}`, type: "function", function: c }))
            : undefined,
        };
        const usage = { prompt_tokens: reply.promptTokens ?? 20, completion_tokens: 5 };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            choices: [{ index: 0, message, finish_reason: calls.length ? "tool_calls" : "stop" }],
            usage,
          }),
        );
        return;
      }
      if (reply.kind === "tool_calls") {
        res
          .writeHead(400, { "content-type": "application/json" })
          .end('{"error":"tool_calls replies need stream: false"}');
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (reply.kind === "garbage") {
        res.end("data: {not json\n\n");
        return;
      }
      const pieces = reply.text.match(/.{1,4}/gs) ?? [];
      for (const p of pieces) res.write(sseToken(p));
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
