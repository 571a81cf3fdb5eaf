// The run's pending changes. A StagedWorkspace wraps one ToolClient: read-only calls pass through;
// calls that change something are first *staged* — the server is asked for a preview (the tool's
// `dry_run` argument; nothing is written) and the change waits here with a diff against what is on
// disk — and reach the server only on commit(), which sends the real call with the preview's
// `expected_sha256`, so a file changed in between is never overwritten (the server writes atomically).
//
// Every instance owns its own pending list and nothing else: several workspaces (e.g. k voting runs)
// can share one client and coexist; only the one whose changes are committed touches the disk.
import type { ToolCallResult, ToolClient, ToolInfo } from "../mcp/types.js";
import { errorText, untilAborted } from "../util.js";
import { unifiedDiff } from "./line-diff.js";
import { KitError } from "../errors.js";

/** What an approval shows for a staged write. */
export interface ChangePreview {
  /** Path relative to the server's workspace folder. */
  path: string;
  isNew: boolean;
  before: string;
  after: string;
  /** Unified diff before → after ("" when identical). */
  diff: string;
  bytes: number;
  /** sha256 of `before` (null for a new file): the commit only succeeds on this state. */
  baseSha256: string | null;
}

export type StagedStatus = "pending" | "committed" | "discarded" | "failed";

export interface StagedChange {
  id: string;
  toolName: string;
  /** The arguments the model gave (without the staging fields). */
  arguments: Record<string, unknown>;
  preview: ChangePreview;
  status: StagedStatus;
  /** Why it was discarded, or the server's error when the commit failed. */
  reason?: string;
}

/** A staging step that could not produce a preview (bad path, server error): the call must not run. */
export class StagingError extends KitError {
  override name = "StagingError";
  constructor(
    readonly toolName: string,
    message: string,
  ) {
    super(message);
  }
}

/** As ToolClient's: the executor passes only a signal (its timer owns the time limit, executor.ts). */
export interface CallOptions {
  /** Aborts the call. */
  signal?: AbortSignal;
  /** Time limit of the call in ms (default: the client's own). */
  timeoutMs?: number;
}

const STAGING_FIELDS = ["dry_run", "expected_sha256"] as const;

/** Whether a tool speaks the preview protocol: a boolean `dry_run` and an `expected_sha256` input. */
export function supportsPreview(tool: ToolInfo | undefined): boolean {
  const props = (tool?.inputSchema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  return props?.dry_run !== undefined && props.expected_sha256 !== undefined;
}

/** The tool as the planner should see it: the staging fields belong to the client, not the model. */
export function hideStagingFields(tool: ToolInfo): ToolInfo {
  if (!supportsPreview(tool)) return tool;
  const schema = tool.inputSchema as { properties: Record<string, unknown>; required?: string[] };
  const properties = Object.fromEntries(
    Object.entries(schema.properties).filter(([k]) => !(STAGING_FIELDS as readonly string[]).includes(k)),
  );
  const required = schema.required?.filter((k) => !(STAGING_FIELDS as readonly string[]).includes(k));
  return { ...tool, inputSchema: { ...schema, properties, ...(required ? { required } : {}) } };
}

function withoutStagingFields(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([k]) => !(STAGING_FIELDS as readonly string[]).includes(k)));
}

type DryRunData = {
  path?: unknown;
  existed?: unknown;
  previous_content?: unknown;
  content?: unknown;
  bytes?: unknown;
  previous_sha256?: unknown;
};

function previewFrom(data: unknown, toolName: string): ChangePreview {
  const d = (data ?? {}) as DryRunData;
  if (typeof d.path !== "string" || typeof d.content !== "string") {
    throw new StagingError(
      toolName,
      `Die Vorschau von "${toolName}" hat nicht die erwartete Form (path, content); nichts ausgeführt.`,
    );
  }
  const before = typeof d.previous_content === "string" ? d.previous_content : "";
  return {
    path: d.path,
    isNew: d.existed !== true,
    before,
    after: d.content,
    diff: unifiedDiff(before, d.content, d.path),
    bytes: typeof d.bytes === "number" ? d.bytes : Buffer.byteLength(d.content, "utf8"),
    baseSha256: typeof d.previous_sha256 === "string" ? d.previous_sha256 : null,
  };
}

/** A ToolClient that stages changing calls (preview and diff) until commit(); read-only calls pass through. */
export class StagedWorkspace implements ToolClient {
  readonly #client: ToolClient;
  readonly #catalog: Map<string, ToolInfo>;
  readonly #changes = new Map<string, StagedChange>();
  #counter = 0;

  constructor(client: ToolClient, catalog: readonly ToolInfo[]) {
    this.#client = client;
    this.#catalog = new Map(catalog.map((t) => [t.name, t]));
  }

  /** Whether a call to this tool is staged (side-effecting and speaks the preview protocol). */
  stages(toolName: string): boolean {
    const tool = this.#catalog.get(toolName);
    return tool?.annotations?.readOnlyHint !== true && supportsPreview(tool);
  }

  /** Asks the server for a preview and records the change as pending. Throws StagingError when that fails. */
  async stage(
    id: string,
    toolName: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<StagedChange> {
    if (!this.stages(toolName))
      throw new StagingError(toolName, `"${toolName}" kann nicht vorgemerkt werden (keine Vorschau).`);
    if (this.#changes.get(id)?.status === "pending")
      throw new StagingError(toolName, `Die Änderung "${id}" ist schon vorgemerkt.`);
    const clean = withoutStagingFields(args);
    const result = await this.#client.callTool(toolName, { ...clean, dry_run: true }, options);
    if (result.isError) throw new StagingError(toolName, result.text || `"${toolName}" lieferte keine Vorschau.`);
    const change: StagedChange = {
      id,
      toolName,
      arguments: clean,
      preview: previewFrom(result.data, toolName),
      status: "pending",
    };
    this.#changes.set(id, change);
    return change;
  }

  /** Sends the real call for a pending change. The server refuses if the file changed since the preview. */
  async commit(id: string, options: CallOptions = {}): Promise<ToolCallResult> {
    const change = this.#pending(id);
    let result: ToolCallResult;
    try {
      // The wait ends with the signal even if the client ignores it: the change is then settled as failed.
      result = await untilAborted(
        this.#client.callTool(
          change.toolName,
          { ...change.arguments, expected_sha256: change.preview.baseSha256 },
          options,
        ),
        options.signal,
      );
    } catch (error) {
      this.#settle(change, "failed", errorText(error));
      throw error;
    }
    if (result.isError) this.#settle(change, "failed", result.text);
    else this.#settle(change, "committed");
    return result;
  }

  /** Drops a pending change; nothing reaches the server. */
  discard(id: string, reason?: string): void {
    this.#settle(this.#pending(id), "discarded", reason);
  }

  /** Pending changes in staging order. */
  pending(): StagedChange[] {
    return [...this.#changes.values()].filter((c) => c.status === "pending").map((c) => ({ ...c }));
  }

  /** Every change this workspace has seen, with its status. */
  changes(): StagedChange[] {
    return [...this.#changes.values()].map((c) => ({ ...c }));
  }

  /** Reads pass through; a staged tool called directly is only staged (result says so). */
  async callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolCallResult> {
    if (!this.stages(name)) return this.#client.callTool(name, args, options);
    try {
      const change = await this.stage(`staged_${++this.#counter}`, name, args, options);
      const data = {
        staged: true,
        id: change.id,
        path: change.preview.path,
        is_new: change.preview.isNew,
        bytes: change.preview.bytes,
      };
      return { isError: false, data, text: `Vorgemerkt (noch nicht geschrieben): ${change.preview.path}` };
    } catch (error) {
      if (error instanceof StagingError) return { isError: true, data: null, text: error.message };
      throw error;
    }
  }

  /** The wrapped client's tools. */
  listTools(): Promise<ToolInfo[]> {
    return this.#client.listTools();
  }

  /** Closing a workspace leaves the shared client open; pending changes are discarded. */
  async close(): Promise<void> {
    for (const change of this.#changes.values())
      if (change.status === "pending") this.#settle(change, "discarded", "Arbeitsbereich geschlossen");
  }

  #pending(id: string): StagedChange {
    const change = this.#changes.get(id);
    if (!change || change.status !== "pending")
      throw new StagingError(change?.toolName ?? "?", `Keine vorgemerkte Änderung "${id}".`);
    return change;
  }

  #settle(change: StagedChange, status: StagedStatus, reason?: string): void {
    change.status = status;
    if (reason !== undefined) change.reason = reason;
  }
}
