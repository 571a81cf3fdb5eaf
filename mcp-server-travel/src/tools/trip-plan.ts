// save_trip_plan: the one tool with a side effect. It writes a Markdown itinerary into the kit's
// workspace folder and nowhere else. Protocol for clients that stage writes (lib/agent/workspace.ts):
//   1. call with `dry_run: true` → nothing is written; the result holds the file's current content,
//      the exact new content and the current content's sha256 (null when the file does not exist);
//   2. after approval, call again with `expected_sha256` from step 1 → written atomically (temporary
//      file + rename) unless the file changed in between.
import { createHash, randomBytes } from "node:crypto";
import { lstat, mkdir, readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { findProjectRoot } from "../../../lib/config.js";
import { InvalidArgumentError, TravelError } from "../errors.js";
import { errorText } from "../../../lib/util.js";
import { toolSchema } from "../per-process.js";

export const MAX_PLAN_CHARS = 20_000;
const SAFE_NAME = /^[\p{L}\p{N}][\p{L}\p{N} _.-]*$/u;

/** A write that would leave the workspace folder or conflicts with the file on disk. */
export class WorkspaceError extends TravelError {
  override name = "WorkspaceError";
  constructor(code: "outside_workspace" | "conflict" | "not_a_file", message: string, input?: unknown) {
    super(code, message, input);
  }
}

export const saveTripPlanInput = {
  file_name: z
    .string({ error: "file_name fehlt oder ist kein Text, z. B. \"rom-wochenende.md\"." })
    .trim()
    .min(1, "file_name darf nicht leer sein, z. B. \"rom-wochenende.md\".")
    .max(120, "file_name ist zu lang (höchstens 120 Zeichen).")
    .describe("Dateiname im Arbeitsordner, z. B. \"rom-wochenende.md\" oder \"italien/rom.md\" (Endung .md wird ergänzt)"),
  title: z
    .string({ error: "title fehlt oder ist kein Text." })
    .trim()
    .min(1, "title darf nicht leer sein.")
    .max(200, "title ist zu lang (höchstens 200 Zeichen).")
    .describe("Überschrift des Reiseplans, z. B. \"Wochenende in Rom\""),
  content: z
    .string({ error: "content fehlt oder ist kein Text (Markdown)." })
    .max(MAX_PLAN_CHARS, `content ist zu lang (höchstens ${MAX_PLAN_CHARS} Zeichen).`)
    .describe("Der Reiseplan als Markdown (Tage, Orte, Wetter), ohne die Überschrift"),
  dry_run: z.boolean().optional().describe("Nur Vorschau: nichts schreiben, bisherigen und neuen Inhalt zurückgeben"),
  expected_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "expected_sha256 muss ein sha256-Hexwert aus der Vorschau sein.")
    .nullable()
    .optional()
    .describe("Nur schreiben, wenn die Datei noch den Stand der Vorschau hat (null: Datei darf noch nicht existieren)"),
};

export const saveTripPlanOutput = {
  path: z.string().describe("Pfad relativ zum Arbeitsordner"),
  written: z.boolean().describe("true, wenn die Datei geschrieben wurde (false bei dry_run)"),
  existed: z.boolean().describe("ob die Datei vorher schon existierte"),
  bytes: z.number().describe("Größe des neuen Inhalts in Bytes"),
  sha256: z.string().describe("sha256 des neuen Inhalts"),
  previous_sha256: z.string().nullable().describe("sha256 des bisherigen Inhalts, null wenn neu"),
  previous_content: z.string().nullable().optional().describe("bisheriger Inhalt (nur bei dry_run)"),
  content: z.string().optional().describe("der Inhalt, der geschrieben wird (nur bei dry_run)"),
};

type SaveArgs = {
  file_name: string;
  title: string;
  content: string;
  dry_run?: boolean | undefined;
  expected_sha256?: string | null | undefined;
};

export interface SaveTripPlanResult {
  path: string;
  written: boolean;
  existed: boolean;
  bytes: number;
  sha256: string;
  previous_sha256: string | null;
  previous_content?: string | null;
  content?: string;
}

/** The workspace folder: TRAVEL_WORKSPACE_DIR, else `<project>/workspace`. */
export function workspaceDirFromEnv(env: NodeJS.ProcessEnv = process.env, root?: string): string {
  return resolve(env.TRAVEL_WORKSPACE_DIR || join(root ?? findProjectRoot(), "workspace"));
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The document exactly as written: heading, blank line, body, one final newline. */
export function renderTripPlan(title: string, content: string): string {
  return `# ${title.trim()}\n\n${content.replace(/\r\n/g, "\n").trim()}\n`;
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/** Resolves `fileName` inside `workspace` or throws a WorkspaceError/InvalidArgumentError saying why not. */
export async function resolveWorkspacePath(workspace: string, fileName: string): Promise<{ absolute: string; relative: string }> {
  const outside = () =>
    new WorkspaceError(
      "outside_workspace",
      `Der Dateiname "${fileName}" führt aus dem Arbeitsordner heraus. Erlaubt sind nur einfache Namen wie "rom.md" oder "italien/rom.md".`,
      { file_name: fileName },
    );
  if (isAbsolute(fileName) || fileName.includes("\\") || fileName.includes("\0")) throw outside();
  const parts = fileName.split("/");
  if (parts.some((p) => p === ".." || p === ".")) throw outside();
  const bad = parts.find((p) => !SAFE_NAME.test(p));
  if (bad !== undefined) {
    throw new InvalidArgumentError(
      `Der Dateiname "${fileName}" enthält einen ungültigen Teil "${bad}": erlaubt sind Buchstaben, Ziffern, Leerzeichen, "_", "-" und ".".`,
      { file_name: fileName },
    );
  }
  const ext = extname(fileName).toLowerCase();
  if (ext !== "" && ext !== ".md") {
    throw new InvalidArgumentError(`Reisepläne sind Markdown-Dateien: "${fileName}" muss auf .md enden.`, { file_name: fileName });
  }
  const withExt = ext === "" ? `${fileName}.md` : fileName;
  const root = resolve(workspace);
  const absolute = resolve(root, withExt);
  if (!isInside(root, absolute)) throw outside();
  // Symlinks inside the workspace must not lead out of it: check the deepest existing ancestor.
  await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);
  let probe = absolute;
  for (;;) {
    try {
      const real = await realpath(probe);
      if (real !== realRoot && !isInside(realRoot, real)) throw outside();
      break;
    } catch (error) {
      if (error instanceof TravelError) throw error;
      probe = dirname(probe);
    }
  }
  return { absolute, relative: relative(root, absolute).split(sep).join("/") };
}

async function readCurrent(absolute: string): Promise<string | null> {
  try {
    const info = await lstat(absolute);
    if (!info.isFile()) throw new WorkspaceError("not_a_file", `"${absolute}" ist keine normale Datei und wird nicht überschrieben.`);
    return await readFile(absolute, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Writes via a temporary file in the same folder and a rename: readers see the old or the new file, never half. */
async function writeAtomically(absolute: string, text: string): Promise<void> {
  await mkdir(dirname(absolute), { recursive: true });
  const tmp = `${absolute}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(tmp, text, { encoding: "utf8", flag: "wx" });
    await rename(tmp, absolute);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

export async function saveTripPlan(workspace: string, args: SaveArgs): Promise<SaveTripPlanResult> {
  const target = await resolveWorkspacePath(workspace, args.file_name);
  const text = renderTripPlan(args.title, args.content);
  const previous = await readCurrent(target.absolute);
  const previousSha = previous === null ? null : sha256(previous);
  const base = { path: target.relative, existed: previous !== null, bytes: Buffer.byteLength(text, "utf8"), sha256: sha256(text), previous_sha256: previousSha };
  if (args.dry_run) return { ...base, written: false, previous_content: previous, content: text };
  if (args.expected_sha256 !== undefined && args.expected_sha256 !== previousSha) {
    throw new WorkspaceError(
      "conflict",
      `"${target.relative}" wurde seit der Vorschau verändert; nichts geschrieben. Bitte die Vorschau neu anfordern.`,
      { file_name: args.file_name },
    );
  }
  await writeAtomically(target.absolute, text);
  return { ...base, written: true };
}

export function renderSaveResult(r: SaveTripPlanResult): string {
  if (!r.written) return `Vorschau für ${r.path}: ${r.existed ? "Datei wird ersetzt" : "neue Datei"}, ${r.bytes} Bytes. Nichts geschrieben.`;
  return `Reiseplan gespeichert: ${r.path} (${r.bytes} Bytes${r.existed ? ", vorherige Fassung ersetzt" : ""}).`;
}

const SAVE_SCHEMAS = { input: toolSchema(saveTripPlanInput), output: toolSchema(saveTripPlanOutput) };

export interface TripPlanToolOptions {
  workspaceDir: () => string;
  log: (line: string) => void;
}

export function registerSaveTripPlan(server: McpServer, options: TripPlanToolOptions): void {
  server.registerTool(
    "save_trip_plan",
    {
      title: "Reiseplan speichern",
      description:
        "Speichert einen Reiseplan als Markdown-Datei im Arbeitsordner des Workshops (nie außerhalb). Verändert Dateien: " +
        "der Aufruf braucht eine Freigabe durch den Menschen. Eine bestehende Datei gleichen Namens wird ersetzt. " +
        "Erst aufrufen, wenn die Fakten (Wetter, Orte) aus anderen Werkzeugen vorliegen.",
      inputSchema: SAVE_SCHEMAS.input,
      outputSchema: SAVE_SCHEMAS.output,
      annotations: { title: "Reiseplan speichern", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args): Promise<CallToolResult> => {
      try {
        const result = await saveTripPlan(options.workspaceDir(), args);
        if (result.written) options.log(`save_trip_plan → ${result.path} geschrieben (${result.bytes} Bytes)`);
        return { content: [{ type: "text", text: renderSaveResult(result) }], structuredContent: { ...result } };
      } catch (error) {
        const message = error instanceof TravelError ? error.message : `Interner Fehler im Reise-Server bei save_trip_plan: ${errorText(error)}`;
        options.log(`save_trip_plan ${JSON.stringify({ file_name: args.file_name })} → Fehler: ${message}`);
        return { isError: true, content: [{ type: "text", text: message }] };
      }
    },
  );
}
