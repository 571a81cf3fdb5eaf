// Every non-2xx answer of the HTTP transport is a JSON-RPC error object with a short German message:
// no HTML page, no file paths, no stack traces (they end up as the error text in MCP clients).
import type { NextFunction, Request, Response } from "express";

export function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });
}

/** Largest request body express.json() accepts (its default). */
export const MAX_BODY = "100kb";

/** Errors from the body parser (and anything else thrown before a route answered); `label` names the server. */
export function bodyErrorHandler(log: (line: string) => void, label: string) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const type = (error as { type?: string }).type;
    switch (type) {
      case "entity.parse.failed":
        return jsonRpcError(
          res,
          400,
          -32700,
          "Ungültiges JSON im Anfragetext: erwartet wird ein JSON-RPC-Objekt (oder eine Liste davon).",
        );
      case "entity.too.large":
        return jsonRpcError(
          res,
          413,
          -32600,
          `Anfrage zu groß: höchstens ${MAX_BODY.replace("kb", " kB")} pro Anfrage.`,
        );
      case "encoding.unsupported":
      case "charset.unsupported":
        return jsonRpcError(res, 415, -32600, "Nicht unterstützte Zeichenkodierung: bitte UTF-8 senden.");
      case "request.aborted":
        return jsonRpcError(res, 400, -32600, "Anfrage abgebrochen, bevor sie vollständig war.");
      default:
        log(`HTTP-Anfrage fehlgeschlagen: ${(error as Error)?.stack ?? String(error)}`);
        return jsonRpcError(res, 500, -32603, `Interner Fehler im ${label}.`);
    }
  };
}

/** Paths and methods the server does not serve; `label` names the server. */
export function notFound(label: string) {
  return (req: Request, res: Response): void => {
    if (req.path === "/mcp")
      return jsonRpcError(
        res,
        405,
        -32000,
        `Methode ${req.method} wird für /mcp nicht unterstützt (nur POST, GET, DELETE).`,
      );
    jsonRpcError(res, 404, -32000, `Unbekannter Pfad: der ${label} antwortet unter /mcp (und /healthz).`);
  };
}
