// McpToolClient: one MCP session, opened once and reused for every call. Within one request it opens a
// new session when the old one is gone before the request reached a tool (server restarted: HTTP 404,
// connection refused, stdio child exited) and sends again. A connection lost while a tool may have run
// becomes a transient McpConnectionError: retrying is the caller's decision (the executor's, see
// agent/executor.ts). SDK errors are mapped by class and error code to ToolTimeoutError / McpConnectionError.
import { setMaxListeners } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { loadConfig } from "../config.js";
import { McpConnectionError, networkCode, ToolTimeoutError } from "./errors.js";
import { normalizeToolResult, toToolInfo } from "./sdk-results.js";
import { childEnv, mathServerCommand, travelServerCommand, type ServerCommand } from "./server-command.js";
import type { ToolCallResult, ToolClient, ToolInfo } from "./types.js";
import { errorText, ignore } from "../util.js";

const CLIENT_INFO = { name: "agentic-ai-workshop-kit", version: "0.1.0" };
const DEFAULT_TIMEOUT_MS = 60_000;

/** The SDK always arms a timer per request (its default 60 s); this one never fires first. */
const NO_TIMEOUT_MS = 2 ** 31 - 1;

export interface McpClientOptions {
  /**
   * Time limit in ms for connecting, listing tools and a standalone callTool (default 60 s). A call with
   * a signal has no timer of its own: the caller owns the limit (the agent's executor, toolTimeoutMs).
   */
  timeoutMs?: number;
}

interface Connection {
  client: Client;
  transport: Transport;
}

interface TransportFactory {
  /** Human-readable target for messages ("http://…/mcp" or "stdio: …"). */
  target: string;
  create(): Transport;
  /** Extra diagnostics for error messages (e.g. the stdio server's stderr). */
  diagnostics?(): string;
}

/**
 * fetch for a long-lived session. The SDK transport passes one AbortSignal, aborted when the session
 * closes, to every request; Node's fetch adds an abort listener to it per request and removes it only once
 * that request has been garbage-collected by a full GC. Over a session thousands pile up: every new
 * request walks them all (EventTarget looks for a duplicate before adding), and they set off a (false)
 * MaxListenersExceededWarning. So each request gets a signal of its own, tied to the session's only while
 * it needs it: until the answer's headers are in, and for an event stream until the stream ends. (A JSON
 * answer whose headers are in is read to its end even if the session closes meanwhile; it is small, and
 * the closed session ignores it.) The session's signal then holds one listener per request in flight; more
 * than 10 parallel calls would set off the (false) warning, so its limit is lifted (Node's fetch never sees
 * that signal, only the request's own).
 */
export const sessionFetch: typeof fetch = async (input, init) => {
  const session = init?.signal;
  if (!session) return fetch(input, init);
  session.throwIfAborted();
  setMaxListeners(0, session);
  const own = new AbortController();
  const abort = () => own.abort(session.reason);
  session.addEventListener("abort", abort, { once: true });
  const release = () => session.removeEventListener("abort", abort);
  let response: Response;
  try {
    response = await fetch(input, { ...init, signal: own.signal });
  } catch (error) {
    release();
    throw error;
  }
  if (!response.body || !response.headers.get("content-type")?.includes("text/event-stream")) {
    release();
    return response;
  }
  const { status, statusText, headers } = response;
  return new Response(response.body.pipeThrough(new TransformStream({ flush: release })), {
    status,
    statusText,
    headers,
  });
};

/** HTTP statuses after which a later attempt may succeed. */
const RETRY_LATER_STATUS = new Set([429, 502, 503, 504]);

/**
 * How a failed request is handled: "not_sent" (no tool ran: reconnect and send again), "lost" (the
 * connection broke while a tool may have run: reconnect, report as transient), "busy" (transient, no
 * reconnect) or "other" (passed on).
 */
export function failureKind(error: unknown): "not_sent" | "lost" | "busy" | "other" {
  if (error instanceof StreamableHTTPError)
    return error.code === 404 ? "not_sent" : RETRY_LATER_STATUS.has(error.code ?? 0) ? "busy" : "other";
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed ? "lost" : "other";
  const code = networkCode(error);
  if (code === "ECONNREFUSED") return "not_sent";
  return code ? "lost" : "other";
}

function message(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const base = errorText(error);
  return cause?.code ? `${base} (${cause.code})` : base;
}

/**
 * One MCP session (stdio or Streamable HTTP), opened on first use and reused; reconnects once when the
 * session was lost before a request reached a tool. Errors: McpConnectionError, ToolTimeoutError.
 */
export class McpToolClient implements ToolClient {
  private conn: Connection | undefined;
  private connecting: Promise<Connection> | undefined;
  private closed = false;
  private toolsListed = false;
  private reconnectCount = 0;
  private readonly timeoutMs: number;

  private constructor(
    private readonly factory: TransportFactory,
    options: McpClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** Connects to a Streamable HTTP endpoint such as http://127.0.0.1:8765/mcp. */
  static async connect(url: string, options?: McpClientOptions): Promise<McpToolClient> {
    const endpoint = new URL(url);
    const client = new McpToolClient(
      { target: url, create: () => new StreamableHTTPClientTransport(endpoint, { fetch: sessionFetch }) },
      options,
    );
    await client.connection();
    return client;
  }

  /** Starts the travel server as a stdio child process and connects to it. */
  static async connectStdio(
    options: McpClientOptions & { offline?: boolean; env?: Record<string, string> } = {},
  ): Promise<McpToolClient> {
    const config = loadConfig();
    const offline = options.offline ?? config.travelOffline;
    const flags = ["--stdio", "--parent-pid", String(process.pid)];
    if (offline) flags.push("--offline");
    const env = childEnv({ ...options.env, TRAVEL_OFFLINE: offline ? "1" : "0" });
    return McpToolClient.connectCommand(travelServerCommand(flags, config.root), env, options);
  }

  /** Starts any MCP server command as a stdio child process and connects to it (its stderr goes into error messages). */
  static async connectCommand(
    cmd: ServerCommand,
    env: Record<string, string>,
    options?: McpClientOptions,
  ): Promise<McpToolClient> {
    let stderr = "";
    const client = new McpToolClient(
      {
        target: `stdio: ${cmd.args.slice(2).join(" ")}`,
        create: () => {
          const transport = new StdioClientTransport({
            command: cmd.command,
            args: cmd.args,
            cwd: cmd.cwd,
            env,
            stderr: "pipe",
          });
          transport.stderr?.on("data", (chunk: Buffer) => {
            stderr = (stderr + chunk.toString("utf8")).slice(-16_384);
          });
          return transport;
        },
        diagnostics: () => stderr,
      },
      options,
    );
    await client.connection();
    return client;
  }

  /** How often the client had to open a new session. */
  get reconnects(): number {
    return this.reconnectCount;
  }

  /** Process id of the server child started by connectStdio(); undefined over HTTP or after close(). */
  get serverPid(): number | undefined {
    const t = this.conn?.transport;
    return t instanceof StdioClientTransport ? (t.pid ?? undefined) : undefined;
  }

  /** The current MCP session id (HTTP only). */
  get sessionId(): string | undefined {
    const t = this.conn?.transport;
    return t instanceof StreamableHTTPClientTransport ? t.sessionId : undefined;
  }

  private async open(): Promise<Connection> {
    const transport = this.factory.create();
    const client = new Client(CLIENT_INFO);
    try {
      await client.connect(transport, { timeout: this.timeoutMs });
      if (this.toolsListed) await client.listTools(undefined, { timeout: this.timeoutMs }); // output validators
    } catch (error) {
      await client.close().catch(ignore("closing a client that is already gone"));
      const extra = this.factory.diagnostics?.().trim();
      throw new McpConnectionError(
        `Keine Verbindung zum MCP-Server (${this.factory.target}): ${message(error)}. ` +
          `Läuft der Server? Starte ihn mit startTravelServer() oder "npm run travel-server".` +
          (extra ? `\n--- Ausgabe des Servers ---\n${extra}` : ""),
        { target: this.factory.target },
        { cause: error },
      );
    }
    const conn = { client, transport };
    this.conn = conn;
    return conn;
  }

  private connection(): Promise<Connection> {
    // Used after close() (a notebook's clean-up cell, also under "Run All"): a new session on the same server.
    this.closed = false;
    if (!this.connecting) {
      this.connecting = this.open();
      this.connecting.catch(() => {
        this.connecting = undefined;
      });
    }
    return this.connecting;
  }

  /** Replaces a broken connection; concurrent callers share one new connection. */
  private reconnect(stale: Connection): Promise<Connection> {
    if (this.connecting && this.conn !== stale) return this.connection();
    this.conn = undefined;
    this.connecting = undefined;
    this.reconnectCount++;
    void stale.client.close().catch(ignore("closing a stale client that is already gone"));
    return this.connection();
  }

  /** A live connection: a session whose transport has closed (stdio child exited) is replaced first. */
  private async liveConnection(): Promise<Connection> {
    const conn = await this.connection();
    return conn.client.transport ? conn : this.reconnect(conn);
  }

  /** Runs `op` once; sends again on a fresh session only when the first send reached no tool (or `idempotent`). */
  private async withSession<T>(what: string, idempotent: boolean, op: (client: Client) => Promise<T>): Promise<T> {
    const conn = await this.liveConnection();
    try {
      return await op(conn.client);
    } catch (error) {
      const kind = failureKind(error);
      if (kind === "other" || this.closed) throw error;
      const detail = `${what} fehlgeschlagen: ${message(error)}`;
      if (kind === "busy")
        throw new McpConnectionError(
          `${detail}. Später noch einmal versuchen.`,
          { target: this.factory.target },
          { cause: error },
        );
      const fresh = await this.reconnect(conn);
      if (kind === "lost" && !idempotent) {
        throw new McpConnectionError(
          `${detail}. Die Verbindung wurde neu aufgebaut; der Aufruf kann wiederholt werden.`,
          { target: this.factory.target },
          { cause: error },
        );
      }
      try {
        return await op(fresh.client);
      } catch (again) {
        if (failureKind(again) === "other") throw again;
        throw new McpConnectionError(
          `${what} fehlgeschlagen, auch nach einem Neuverbinden: ${message(again)}`,
          { target: this.factory.target },
          { cause: again },
        );
      }
    }
  }

  /** The server's tools (all pages of tools/list), with their input and output schemas. */
  async listTools(): Promise<ToolInfo[]> {
    return this.withSession("tools/list", true, async (client) => {
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.timeoutMs });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      this.toolsListed = true;
      return tools.map(toToolInfo);
    });
  }

  /**
   * One call. `timeoutMs` bounds it with ToolTimeoutError; without it a call with a `signal` waits as long
   * as the signal lets it (the caller's timer owns the limit), one without a signal the client's default.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<ToolCallResult> {
    const timeout = options.timeoutMs ?? (options.signal ? undefined : this.timeoutMs);
    try {
      return await this.withSession(`Aufruf von ${name}`, false, async (client) => {
        const result = await client.callTool({ name, arguments: args }, undefined, {
          timeout: timeout ?? NO_TIMEOUT_MS,
          signal: options.signal,
        });
        return normalizeToolResult(result as CallToolResult, name);
      });
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && timeout !== undefined)
        throw new ToolTimeoutError(name, timeout);
      throw error;
    }
  }

  /** Ends the session (HTTP DELETE) and closes the transport. Safe to call twice; a later call opens a new session. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const conn =
      this.conn ?? (await this.connecting?.catch(ignore("a connection that failed to open has nothing to close")));
    this.conn = undefined;
    this.connecting = undefined;
    if (!conn) return;
    if (conn.transport instanceof StreamableHTTPClientTransport) {
      await Promise.race([
        conn.transport.terminateSession().catch(ignore("a server that ended its session already")),
        new Promise((r) => setTimeout(r, 2000).unref()),
      ]);
    }
    await conn.client.close().catch(ignore("closing a client that is already gone"));
  }
}

/** Starts the math server over stdio (as MCP Inspector or Claude Desktop would) and connects to it. */
export function connectMathClientStdio(
  options?: McpClientOptions & { env?: Record<string, string> },
): Promise<McpToolClient> {
  const cmd = mathServerCommand(["--stdio", "--parent-pid", String(process.pid)]);
  return McpToolClient.connectCommand(cmd, childEnv(options?.env), options);
}
