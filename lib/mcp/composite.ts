// Several tool clients behind the one ToolClient interface the agent already uses: one merged catalog,
// each call routed to the client that offers the tool.
//
// Naming rule (one rule, applied on every listTools): a tool keeps its own name when exactly one
// attached server offers it; a name offered by two or more servers is shown as "<alias>.<name>" for
// every server that offers it (e.g. "reise.geocode", "mathe.addition"). The alias is the key the
// caller gave the client. A qualified name "<alias>.<name>" is also accepted for unique tools.
import type { ToolCallResult, ToolClient, ToolInfo } from "./types.js";
import { ToolServerError } from "./errors.js";

/** Separator between server alias and tool name in a namespaced tool name. */
export const NAMESPACE_SEPARATOR = ".";

const ALIAS = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** A wrong set of clients (bad or duplicate alias, none at all, a name clash the rule cannot resolve). */
export class ToolClientSetupError extends ToolServerError {
  override name = "ToolClientSetupError";
  constructor(
    message: string,
    readonly input: { aliases: string[] },
  ) {
    super(message);
  }
}

export interface ToolRoute {
  /** The alias of the client that serves the tool. */
  alias: string;
  /** The tool's name on its own server. */
  tool: string;
  client: ToolClient;
}

/** Several tool clients, each under an alias: `{ reise: travelClient, mathe: mathClient }`. */
export type ToolClients = Readonly<Record<string, ToolClient>>;

export function isToolClient(value: unknown): value is ToolClient {
  const v = value as Partial<ToolClient> | null;
  return typeof v === "object" && v !== null && typeof v.listTools === "function" && typeof v.callTool === "function";
}

/**
 * The merged names for each alias's tool list (the naming rule above). Pure; exported for tests and
 * for notebooks that want to show the rule on an example.
 */
export function mergeToolNames(
  lists: Readonly<Record<string, readonly string[]>>,
): Map<string, { alias: string; tool: string }> {
  const owners = new Map<string, string[]>();
  for (const [alias, names] of Object.entries(lists)) {
    for (const name of new Set(names)) owners.set(name, [...(owners.get(name) ?? []), alias]);
  }
  const merged = new Map<string, { alias: string; tool: string }>();
  for (const [alias, names] of Object.entries(lists)) {
    for (const tool of new Set(names)) {
      const shared = (owners.get(tool) ?? []).length > 1;
      const name = shared ? `${alias}${NAMESPACE_SEPARATOR}${tool}` : tool;
      const clash = merged.get(name);
      if (clash) {
        throw new ToolClientSetupError(
          `Der Werkzeugname "${name}" entsteht doppelt (${clash.alias}: ${clash.tool}, ${alias}: ${tool}). Wähle andere Kürzel für die Server.`,
          { aliases: Object.keys(lists) },
        );
      }
      merged.set(name, { alias, tool });
    }
  }
  return merged;
}

/** One ToolClient over several: merged catalog, calls routed by name, close() closes them all. */
export class CompositeToolClient implements ToolClient {
  readonly aliases: readonly string[];
  private routes: Map<string, { alias: string; tool: string }> | undefined;

  constructor(readonly clients: ToolClients) {
    this.aliases = Object.keys(clients);
    if (this.aliases.length === 0)
      throw new ToolClientSetupError("Es wurde kein Tool-Client angegeben.", { aliases: [] });
    for (const alias of this.aliases) {
      if (!ALIAS.test(alias)) {
        throw new ToolClientSetupError(
          `Ungültiges Kürzel "${alias}" für einen Server: erlaubt sind Buchstaben, Ziffern, _ und -, beginnend mit einem Buchstaben (z. B. "reise", "mathe").`,
          { aliases: [...this.aliases] },
        );
      }
      if (!isToolClient(clients[alias])) {
        throw new ToolClientSetupError(`Unter "${alias}" steht kein Tool-Client (listTools/callTool fehlen).`, {
          aliases: [...this.aliases],
        });
      }
    }
  }

  /** Every client's tools, listed in parallel, named by the rule in this file's header. */
  async listTools(): Promise<ToolInfo[]> {
    const lists = await Promise.all(
      this.aliases.map(async (alias) => [alias, await this.clients[alias]!.listTools()] as const),
    );
    const routes = mergeToolNames(Object.fromEntries(lists.map(([alias, tools]) => [alias, tools.map((t) => t.name)])));
    this.routes = routes;
    const byRoute = new Map(
      lists.flatMap(([alias, tools]) => tools.map((t) => [`${alias}\u0000${t.name}`, t] as const)),
    );
    return [...routes].map(([name, { alias, tool }]) => ({ ...byRoute.get(`${alias}\u0000${tool}`)!, name }));
  }

  /** Which client serves `name` (merged or qualified); undefined for an unknown name. Lists tools once if needed. */
  async route(name: string): Promise<ToolRoute | undefined> {
    const routes = this.routes ?? (await this.listTools(), this.routes!);
    const direct = routes.get(name);
    if (direct) return { ...direct, client: this.clients[direct.alias]! };
    const cut = name.indexOf(NAMESPACE_SEPARATOR);
    if (cut <= 0) return undefined;
    const alias = name.slice(0, cut);
    const tool = name.slice(cut + NAMESPACE_SEPARATOR.length);
    const known = [...routes.values()].some((r) => r.alias === alias && r.tool === tool);
    return known ? { alias, tool, client: this.clients[alias]! } : undefined;
  }

  /** Calls `name` ("alias__tool" or a tool name only one client has) on the client that owns it. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<ToolCallResult> {
    const target = await this.route(name);
    if (!target) {
      const names = [...(this.routes?.keys() ?? [])];
      const qualified = names.filter((n) => n.endsWith(`${NAMESPACE_SEPARATOR}${name}`));
      const text = qualified.length
        ? `Den Werkzeugnamen "${name}" bieten mehrere Server an; nimm einen dieser Namen: ${qualified.join(", ")}.`
        : `Ein Werkzeug "${name}" gibt es bei keinem der Server (${this.aliases.join(", ")}). Verfügbar: ${names.join(", ")}.`;
      return { isError: true, data: text, text };
    }
    return target.client.callTool(target.tool, args, options);
  }

  /** Closes every client, also when one of them fails to close. */
  async close(): Promise<void> {
    await Promise.allSettled(this.aliases.map((alias) => this.clients[alias]!.close()));
  }
}

const combined = new WeakMap<ToolClients, CompositeToolClient>();

/**
 * A single client as it is; several (by alias) as one CompositeToolClient — the same one for the same
 * record object, so functions that take either (runAgent, executeToolCall) list the tools only once.
 */
export function combineToolClients(tools: ToolClient | ToolClients): ToolClient {
  if (isToolClient(tools)) return tools;
  let composite = combined.get(tools);
  if (!composite) {
    composite = new CompositeToolClient(tools);
    combined.set(tools, composite);
  }
  return composite;
}
