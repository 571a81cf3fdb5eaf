// Streamable HTTP transport at /mcp with one MCP session per client. Host header validation (SDK
// middleware via createMcpExpressApp) and an Origin check protect the local server against DNS rebinding.
// Sessions are capped and closed when idle (sessions.ts); every error answer is JSON-RPC (http-errors.ts);
// binds beyond loopback need an explicit Host list (bind.ts).
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server as HttpServer } from "node:http";
import type { Request, Response, NextFunction } from "express";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { formatUrl, planBind } from "../../../scripts/node/bind.js";
import { bodyErrorHandler, jsonRpcError, notFound } from "./http-errors.js";
import { releaseAnsweredJsonStreams } from "./json-responses.js";
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, SessionPool } from "./sessions.js";

export { BindError, DEFAULT_ALLOWED_HOSTS, formatUrl, isLoopback } from "../../../scripts/node/bind.js";

export interface HttpServerOptions {
  host: string;
  port: number;
  /**
   * Extra Host names (without port) accepted in the Host and Origin headers. Required for a bind
   * beyond loopback (then they are the only accepted names); added to the loopback names otherwise.
   */
  allowedHosts?: string[];
  createServer: () => McpServer;
  /** The server's German name in messages (default "Reise-Server"; the math server passes its own). */
  label?: string;
  /** Another way to give the Host list, named when a bind beyond loopback lacks one (bind.ts). */
  allowedHostsHint?: string;
  log: (line: string) => void;
  /** Sessions without a request for this long are closed (clients that never said goodbye). */
  sessionIdleMs?: number;
  /** At most this many open sessions; a new one replaces the one idle longest. */
  maxSessions?: number;
}

export interface RunningHttpServer {
  url: string;
  port: number;
  /** Host names accepted in the Host and Origin headers. */
  allowedHosts: string[];
  sessionCount(): number;
  close(): Promise<void>;
}

/** Rejects requests whose Origin header names a host outside the allowed list (browsers always send it). */
function originValidation(allowed: string[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    let hostname: string;
    try {
      hostname = new URL(origin).hostname;
    } catch {
      return jsonRpcError(res, 403, -32000, `Ungültiger Origin-Header: ${origin}`);
    }
    if (!allowed.includes(hostname)) return jsonRpcError(res, 403, -32000, `Origin nicht erlaubt: ${hostname}`);
    next();
  };
}

const KEEP_ALIVE_MS = 60_000;

const UNKNOWN_SESSION = "Sitzung unbekannt oder abgelaufen; bitte neu verbinden (initialize).";

/** One request of a session; afterwards the transport lets go of the answers it sent (json-responses.ts). */
async function handle(
  transport: StreamableHTTPServerTransport,
  req: Request,
  res: Response,
  body?: unknown,
): Promise<void> {
  try {
    await transport.handleRequest(req, res, body);
  } finally {
    releaseAnsweredJsonStreams(transport);
  }
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const label = options.label ?? "Reise-Server";
  const bind = planBind(options.host, options.allowedHosts, label, options.allowedHostsHint);
  if (bind.warning) options.log(bind.warning);
  const app = createMcpExpressApp({ host: options.host, allowedHosts: bind.allowedHosts });
  app.use(originValidation(bind.allowedHosts));
  const sessions = new SessionPool(
    options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
    options.log,
  );

  const failed = (res: Response, error: unknown) => {
    options.log(`HTTP-Anfrage fehlgeschlagen: ${(error as Error)?.stack ?? String(error)}`);
    if (!res.headersSent) jsonRpcError(res, 500, -32603, `Interner Fehler im ${label}.`);
  };

  /** A new session for an initialize request. */
  const openSession = async (req: Request, res: Response) => {
    if (!sessions.makeRoom()) {
      return jsonRpcError(
        res,
        503,
        -32000,
        `Zu viele gleichzeitige Sitzungen (höchstens ${sessions.maxSessions}); bitte gleich noch einmal versuchen.`,
      );
    }
    const server = options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Plain JSON answers: the tools send no progress notifications, and JSON is cheaper than an SSE stream per call.
      enableJsonResponse: true,
      onsessioninitialized: (sid) => sessions.add(sid, { transport, server }),
      onsessionclosed: (sid) => void sessions.close(sid),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.forget(transport.sessionId);
    };
    await server.connect(transport);
    await handle(transport, req, res, req.body);
  };

  app.post("/mcp", async (req: Request, res: Response) => {
    const id = req.headers["mcp-session-id"];
    try {
      if (typeof id === "string") {
        const session = sessions.get(id);
        if (!session) return jsonRpcError(res, 404, -32001, UNKNOWN_SESSION);
        return await sessions.use(session, () => handle(session.transport, req, res, req.body));
      }
      if (!isInitializeRequest(req.body)) {
        return jsonRpcError(res, 400, -32000, "Keine gültige Sitzung: zuerst initialize ohne mcp-session-id senden.");
      }
      await openSession(req, res);
    } catch (error) {
      failed(res, error);
    }
  });

  const bySession = async (req: Request, res: Response) => {
    const id = req.headers["mcp-session-id"];
    const session = typeof id === "string" ? sessions.get(id) : undefined;
    if (!session) {
      return typeof id === "string"
        ? jsonRpcError(res, 404, -32001, UNKNOWN_SESSION)
        : jsonRpcError(res, 400, -32000, "Header mcp-session-id fehlt.");
    }
    try {
      // An open GET event stream does not keep the session busy (it would never be evicted otherwise).
      await sessions.use(session, () => handle(session.transport, req, res), req.method !== "GET");
    } catch (error) {
      failed(res, error);
    }
  };
  app.get("/mcp", bySession);
  app.delete("/mcp", bySession);
  app.get("/healthz", (_req: Request, res: Response) => {
    res.json({ status: "ok", sessions: sessions.size });
  });
  app.use(notFound(label));
  app.use(bodyErrorHandler(options.log, label));

  const httpServer: HttpServer = await new Promise((resolve, reject) => {
    const srv = app.listen(options.port, options.host);
    srv.once("listening", () => resolve(srv));
    srv.once("error", (error: NodeJS.ErrnoException) => {
      const hint =
        error.code === "EADDRINUSE"
          ? `Port ${options.port} ist bereits belegt (läuft der ${label} schon?). Wähle einen anderen mit --port oder --port 0 für einen freien.`
          : `Konnte ${options.host}:${options.port} nicht öffnen: ${error.message}`;
      reject(Object.assign(new Error(hint), { code: error.code }));
    });
  });

  // Idle keep-alive sockets: a client drops its own after the server's advertised timeout minus 1 s.
  // With Node's 5 s default, a client whose event loop is busy for a few seconds (a notebook kernel
  // compiling a cell) reuses a socket the server has just closed and gets "other side closed".
  httpServer.keepAliveTimeout = KEEP_ALIVE_MS;
  httpServer.headersTimeout = KEEP_ALIVE_MS + 5_000;
  const port = (httpServer.address() as AddressInfo).port;
  return {
    url: formatUrl(bind.urlHost, port),
    port,
    allowedHosts: bind.allowedHosts,
    sessionCount: () => sessions.size,
    async close() {
      await sessions.closeAll();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}
