// Streamable HTTP transport at /mcp with one MCP session per client. Host header validation (SDK
// middleware via createMcpExpressApp) and an Origin check protect the local server against DNS rebinding.
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server as HttpServer } from "node:http";
import type { Request, Response, NextFunction } from "express";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

export const DEFAULT_ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

export interface HttpServerOptions {
  host: string;
  port: number;
  /** Host names (without port) accepted in the Host and Origin headers. */
  allowedHosts?: string[];
  createServer: () => McpServer;
  log: (line: string) => void;
  /** The server's German name in messages (default "Reise-Server"; the math server passes its own). */
  label?: string;
  /** Sessions without a request for this long are closed (clients that never said goodbye). */
  sessionIdleMs?: number;
}

export interface RunningHttpServer {
  url: string;
  port: number;
  sessionCount(): number;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
}

function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });
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

export function formatUrl(host: string, port: number): string {
  const h = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  return `http://${h}:${port}/mcp`;
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const allowed = [...new Set([...(options.allowedHosts ?? DEFAULT_ALLOWED_HOSTS)])];
  const label = options.label ?? "Reise-Server";
  const app = createMcpExpressApp({ host: options.host, allowedHosts: allowed });
  app.use(originValidation(allowed));
  const sessions = new Map<string, Session>();
  const idleMs = options.sessionIdleMs ?? 15 * 60_000;

  const closeSession = async (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.transport.close().catch(() => undefined);
    await s.server.close().catch(() => undefined);
  };

  app.post("/mcp", async (req: Request, res: Response) => {
    const id = req.headers["mcp-session-id"];
    try {
      if (typeof id === "string") {
        const session = sessions.get(id);
        if (!session) return jsonRpcError(res, 404, -32001, "Sitzung unbekannt oder abgelaufen; bitte neu verbinden (initialize).");
        session.lastSeen = Date.now();
        return await session.transport.handleRequest(req, res, req.body);
      }
      if (!isInitializeRequest(req.body)) {
        return jsonRpcError(res, 400, -32000, "Keine gültige Sitzung: zuerst initialize ohne mcp-session-id senden.");
      }
      const server = options.createServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        // Plain JSON answers: the tools send no progress notifications, and JSON is cheaper than an SSE stream per call.
        enableJsonResponse: true,
        onsessioninitialized: (sid) => {
          sessions.set(sid, { transport, server, lastSeen: Date.now() });
        },
        onsessionclosed: (sid) => {
          void closeSession(sid);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      options.log(`HTTP-Anfrage fehlgeschlagen: ${(error as Error)?.stack ?? String(error)}`);
      if (!res.headersSent) jsonRpcError(res, 500, -32603, `Interner Fehler im ${label}.`);
    }
  });

  const bySession = async (req: Request, res: Response) => {
    const id = req.headers["mcp-session-id"];
    const session = typeof id === "string" ? sessions.get(id) : undefined;
    if (!session) {
      return typeof id === "string"
        ? jsonRpcError(res, 404, -32001, "Sitzung unbekannt oder abgelaufen; bitte neu verbinden (initialize).")
        : jsonRpcError(res, 400, -32000, "Header mcp-session-id fehlt.");
    }
    session.lastSeen = Date.now();
    try {
      await session.transport.handleRequest(req, res);
    } catch (error) {
      options.log(`HTTP-Anfrage fehlgeschlagen: ${String(error)}`);
      if (!res.headersSent) jsonRpcError(res, 500, -32603, `Interner Fehler im ${label}.`);
    }
  };
  app.get("/mcp", bySession);
  app.delete("/mcp", bySession);
  app.get("/healthz", (_req: Request, res: Response) => {
    res.json({ status: "ok", sessions: sessions.size });
  });

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

  const sweeper = setInterval(() => {
    const cutoff = Date.now() - idleMs;
    for (const [id, s] of sessions) if (s.lastSeen < cutoff) void closeSession(id);
  }, Math.min(60_000, idleMs));
  sweeper.unref();

  const port = (httpServer.address() as AddressInfo).port;
  return {
    url: formatUrl(options.host, port),
    port,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.keys()].map(closeSession));
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}
