// The open MCP sessions of the HTTP transport, bounded in number and in idle time. When the cap is
// reached, a new session replaces the one idle longest; clients that never said goodbye are closed
// after the idle timeout. A session is busy while one of its POST requests runs (an open GET event
// stream does not count: it may stay open for the whole session).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ignore } from "../../../lib/util.js";

export const DEFAULT_MAX_SESSIONS = 50;
export const DEFAULT_SESSION_IDLE_MS = 15 * 60_000;

export interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
  busy: number;
}

export class SessionPool {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly maxSessions: number,
    readonly idleMs: number,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.closeIdle(), Math.max(250, Math.min(60_000, idleMs / 2)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  add(id: string, session: Omit<Session, "lastSeen" | "busy">): void {
    this.sessions.set(id, { ...session, lastSeen: this.now(), busy: 0 });
  }

  forget(id: string): void {
    this.sessions.delete(id);
  }

  /** Makes room for one more session; false when every session is busy. */
  makeRoom(): boolean {
    while (this.sessions.size >= this.maxSessions) {
      // forEach, not for…of over entries: no [id, session] array per open session on every new session.
      let oldestId: string | undefined;
      let oldestSeen = Infinity;
      this.sessions.forEach((s, id) => {
        if (s.busy === 0 && s.lastSeen < oldestSeen) {
          oldestId = id;
          oldestSeen = s.lastSeen;
        }
      });
      if (oldestId === undefined) return false;
      this.log(`Höchstzahl von ${this.maxSessions} Sitzungen erreicht: schließe die am längsten unbenutzte.`);
      void this.close(oldestId);
    }
    return true;
  }

  /** Runs one request of the session, marking it busy meanwhile. */
  async use<T>(session: Session, work: () => Promise<T>, counts = true): Promise<T> {
    session.lastSeen = this.now();
    if (counts) session.busy++;
    try {
      return await work();
    } finally {
      if (counts) session.busy--;
      session.lastSeen = this.now();
    }
  }

  async close(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    await s.transport.close().catch(ignore("closing a session transport that is already gone"));
    await s.server.close().catch(ignore("closing a session server that is already gone"));
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  private closeIdle(): void {
    const cutoff = this.now() - this.idleMs;
    for (const [id, s] of this.sessions) if (s.busy === 0 && s.lastSeen < cutoff) void this.close(id);
  }
}
