// Shared helpers for the server tests: raw HTTP requests with chosen headers, raw MCP sessions, process checks,
// the tool-argument guard, a CallSpacer on a fake clock.
import assert from "node:assert/strict";
import { request } from "node:http";
import { CallSpacer } from "../../mcp-server-travel/src/services/rate-limit.js";

export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers, timeout: 5000 }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("timeout", () => req.destroy(new Error("request timed out")));
    req.on("error", reject);
    req.end(options.body);
  });
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
});

export const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

/** Opens a session with raw HTTP; returns its id. */
export async function openSession(url: string, headers: Record<string, string> = {}): Promise<string> {
  const r = await fetch(url, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body: INITIALIZE });
  assert.equal(r.status, 200, await r.clone().text());
  await r.text();
  const id = r.headers.get("mcp-session-id");
  assert.ok(id);
  await fetch(url, {
    method: "POST",
    headers: { ...MCP_HEADERS, ...headers, "mcp-session-id": id },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  return id;
}

export function rpc(url: string, session: string, body: unknown) {
  return rawRequest(url, {
    method: "POST",
    headers: { ...MCP_HEADERS, "mcp-session-id": session },
    body: JSON.stringify(body),
  });
}

/**
 * tools/call of `tool` with arguments that are not a JSON object (a list, null, a string) is answered −32602 with the
 * shared guard's German message (mcp-server-shared/src/arguments-guard.ts) showing `example`, not with raw zod JSON.
 */
export async function assertArgumentsGuarded(url: string, session: string, tool: string, example: string) {
  const shown = example.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const [args, kind] of [
    [[], "eine Liste"],
    [null, "null"],
    ["Rom", "ein Text"],
  ] as const) {
    const r = await rpc(url, session, {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: tool, arguments: args },
    });
    assert.equal(r.status, 200);
    const parsed = JSON.parse(r.body) as { id: number; error: { code: number; message: string } };
    assert.equal(parsed.id, 7);
    assert.equal(parsed.error.code, -32602, r.body);
    assert.match(
      parsed.error.message,
      new RegExp(`Ungültige Argumente für "${tool}": "arguments" muss ein JSON-Objekt .*${shown}.* nicht ${kind}\\.`),
    );
    assert.doesNotMatch(r.body, /invalid_type|expected|received/i, "no raw zod JSON");
    assert.doesNotMatch(parsed.error.message, /"code"/);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until the process is gone; false if it is still there after `ms`. */
export async function waitGone(pid: number, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

/** A CallSpacer `intervalMs` apart on a fake clock: its waits move `clock.now` on at once instead of sleeping. */
export function spacerOnFakeClock(intervalMs: number): { limiter: CallSpacer; clock: { now: number } } {
  const clock = { now: 0 };
  const limiter = new CallSpacer(
    intervalMs,
    () => clock.now,
    async (ms) => {
      clock.now += ms;
    },
  );
  return { limiter, clock };
}
