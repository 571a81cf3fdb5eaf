// save_trip_plan: the one tool with a side effect. It writes a Markdown itinerary into the kit's
// workspace folder and nowhere else. Protocol for clients that stage writes (lib/agent/workspace.ts):
//   1. call with `dry_run: true` → nothing is written; the result holds the file's current content,
//      the exact new content and the current content's sha256 (null when the file does not exist);
//   2. after approval, call again with `expected_sha256` from step 1 → written atomically (temporary
//      file + rename) unless the file changed in between. Check and write are one step per file (one
//      queue per path in this process, which owns the workspace), so of parallel commits of one
//      preview exactly one is written. Errors are German and name only workspace-relative paths.
import { createHash, randomBytes } from "node:crypto";
import { constants, existsSync } from "node:fs";
import { lstat, mkdir, open, readFile, realpath, rename, rm, stat } from "node:fs/promises";
import { extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { findProjectRoot } from "../../../lib/config.js";
import { InvalidArgumentError, TravelError } from "../errors.js";
import { errorText, ignore } from "../../../lib/util.js";
import { toolSchema } from "../../../mcp-server-shared/src/per-process.js";

export const MAX_PLAN_CHARS = 20_000;
const SAFE_NAME = /^[\p{L}\p{N}][\p{L}\p{N} _.-]*$/u;

/** A write that would leave the workspace folder, conflicts with the file on disk, or the disk refused. */
export class WorkspaceError extends TravelError {
  override name = "WorkspaceError";
  constructor(
    code: "outside_workspace" | "conflict" | "not_a_file" | "not_a_folder" | "read_only" | "io",
    message: string,
    input?: unknown,
  ) {
    super(code, message, input);
  }
}

export const saveTripPlanInput = {
  file_name: z
    .string({ error: 'file_name fehlt oder ist kein Text, z. B. "rom-wochenende.md".' })
    .trim()
    .min(1, 'file_name darf nicht leer sein, z. B. "rom-wochenende.md".')
    .max(120, "file_name ist zu lang (höchstens 120 Zeichen).")
    .describe('Dateiname im Arbeitsordner, z. B. "rom-wochenende.md" oder "italien/rom.md" (Endung .md wird ergänzt)'),
  title: z
    .string({ error: "title fehlt oder ist kein Text." })
    .trim()
    .min(1, "title darf nicht leer sein.")
    .max(200, "title ist zu lang (höchstens 200 Zeichen).")
    .describe('Überschrift des Reiseplans, z. B. "Wochenende in Rom"'),
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

/** Longest name of one folder or file, and of a whole path, in bytes (Linux, macOS; Windows is stricter). */
const MAX_NAME_BYTES = 255;
const MAX_PATH_BYTES = 4095;
/** Device names Windows refuses whatever the extension (the workspace may be copied there). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;

/** The temporary file's name: short and fixed in length, so it never fails where the target's name passed. */
function tempName(): string {
  return `.save-${process.pid}-${randomBytes(6).toString("hex")}.tmp`;
}
const TEMP_NAME_BYTES = tempName().length + 8;

function checkPart(fileName: string, part: string): void {
  const invalid = (why: string) =>
    new InvalidArgumentError(`Der Dateiname "${fileName}" enthält einen ungültigen Teil "${part}": ${why}.`, {
      file_name: fileName,
    });
  if (!SAFE_NAME.test(part)) throw invalid('erlaubt sind Buchstaben, Ziffern, Leerzeichen, "_", "-" und "."');
  if (/[. ]$/.test(part)) throw invalid("er endet mit Punkt oder Leerzeichen, das ist unter Windows ungültig");
  if (WINDOWS_RESERVED.test(part)) {
    throw invalid(
      `"${part.split(".")[0]}" ist unter Windows ein reservierter Gerätename (CON, PRN, AUX, NUL, COM1–9, LPT1–9); wähle z. B. "${part.split(".")[0]}-plan.md"`,
    );
  }
}

function tooLong(fileName: string, detail: string): InvalidArgumentError {
  return new InvalidArgumentError(`Der Dateiname "${fileName}" ist zu lang: ${detail}. Wähle einen kürzeren Namen.`, {
    file_name: fileName,
  });
}

export interface WorkspacePath {
  /** Where the file would be if nothing on the way were a symlink (for messages and locks only). */
  absolute: string;
  /** Relative to the workspace, with "/". */
  relative: string;
  /** The workspace folder's real path. */
  realRoot: string;
  /** Folder names from the workspace down to the file's folder. */
  folders: string[];
  /** The file's own name. */
  name: string;
}

/** Resolves `fileName` inside `workspace` or throws a WorkspaceError/InvalidArgumentError saying why not. */
export async function resolveWorkspacePath(workspace: string, fileName: string): Promise<WorkspacePath> {
  const outside = () =>
    new WorkspaceError(
      "outside_workspace",
      `Der Dateiname "${fileName}" führt aus dem Arbeitsordner heraus. Erlaubt sind nur einfache Namen wie "rom.md" oder "italien/rom.md".`,
      { file_name: fileName },
    );
  if (isAbsolute(fileName) || fileName.includes("\\") || fileName.includes("\0")) throw outside();
  const parts = fileName.split("/");
  if (parts.some((p) => p === ".." || p === ".")) throw outside();
  for (const part of parts) checkPart(fileName, part);
  const ext = extname(fileName).toLowerCase();
  if (ext !== "" && ext !== ".md") {
    throw new InvalidArgumentError(`Reisepläne sind Markdown-Dateien: "${fileName}" muss auf .md enden.`, {
      file_name: fileName,
    });
  }
  const withExt = ext === "" ? `${fileName}.md` : fileName;
  const root = resolve(workspace);
  const absolute = resolve(root, withExt);
  if (!isInside(root, absolute)) throw outside();
  const segments = relative(root, absolute).split(sep);
  try {
    return await checkedPath(root, absolute, segments, fileName, outside);
  } catch (error) {
    throw fileSystemError(error, segments.join("/"));
  }
}

async function checkedPath(
  root: string,
  absolute: string,
  segments: string[],
  fileName: string,
  outside: () => WorkspaceError,
): Promise<WorkspacePath> {
  const long = segments.find((p) => Buffer.byteLength(p) > MAX_NAME_BYTES);
  if (long !== undefined)
    throw tooLong(
      fileName,
      `"${long}" hat ${Buffer.byteLength(long)} Bytes, erlaubt sind ${MAX_NAME_BYTES} (Umlaute zählen doppelt, andere Schriftzeichen bis zu vierfach)`,
    );
  await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);
  // The longest path the commit uses: the temporary file next to the target.
  if (
    Buffer.byteLength(join(realRoot, ...segments.slice(0, -1))) +
      1 +
      Math.max(TEMP_NAME_BYTES, Buffer.byteLength(segments.at(-1)!)) >
    MAX_PATH_BYTES
  ) {
    throw tooLong(fileName, `der ganze Pfad im Arbeitsordner darf höchstens ${MAX_PATH_BYTES} Bytes haben`);
  }
  const target = {
    absolute,
    relative: segments.join("/"),
    realRoot,
    folders: segments.slice(0, -1),
    name: segments.at(-1)!,
  };
  // Symlinks inside the workspace must not lead out of it: walk the existing folders (nothing created).
  await locateFolder(target, false, outside);
  return target;
}

/**
 * The real path of the file's folder, walked from the workspace one folder at a time: a symlink must
 * stay inside the workspace, a file where a folder belongs is refused. With `create`, missing folders
 * are made (one `mkdir` each, never through a symlink); without it the walk stops at the first missing one.
 */
async function locateFolder(target: WorkspacePath, create: boolean, outside: () => WorkspaceError): Promise<string> {
  let dir = target.realRoot;
  for (const [i, part] of target.folders.entries()) {
    const next = join(dir, part);
    if (create)
      await mkdir(next).catch((error: NodeJS.ErrnoException) =>
        error.code === "EEXIST" ? undefined : Promise.reject(error),
      );
    const info = await lstat(next).catch((error: NodeJS.ErrnoException) =>
      error.code === "ENOENT" && !create ? undefined : Promise.reject(error),
    );
    if (!info) return next;
    if (info.isSymbolicLink()) {
      const real = await realpath(next);
      if (!isInside(target.realRoot, real)) throw outside();
      dir = real;
    } else {
      dir = next;
    }
    if (!(await stat(dir)).isDirectory()) {
      const shown = target.folders.slice(0, i + 1).join("/");
      throw new WorkspaceError(
        "not_a_folder",
        `„${shown}" ist eine Datei, kein Ordner; nichts geschrieben. Wähle einen anderen Namen.`,
        { file_name: target.relative },
      );
    }
  }
  return dir;
}

/** The file's current content (null when missing); refuses what is not a plain, writable file. */
async function readCurrent(file: string, target: WorkspacePath): Promise<string | null> {
  const info = await lstat(file).catch((error: NodeJS.ErrnoException) =>
    error.code === "ENOENT" ? undefined : Promise.reject(error),
  );
  if (!info) return null;
  if (!info.isFile())
    throw new WorkspaceError(
      "not_a_file",
      `„${target.relative}" ist keine normale Datei und wird nicht überschrieben.`,
      { file_name: target.relative },
    );
  if ((info.mode & 0o222) === 0) {
    throw new WorkspaceError(
      "read_only",
      `„${target.relative}" ist schreibgeschützt und wird nicht ersetzt. Wähle einen anderen Namen oder hebe den Schreibschutz auf.`,
      { file_name: target.relative },
    );
  }
  return await readFile(file, "utf8");
}

function swappedError(target: WorkspacePath): WorkspaceError {
  return new WorkspaceError(
    "outside_workspace",
    `Ein Ordner von „${target.relative}" wurde während des Speicherns ausgetauscht; nichts geschrieben. Bitte noch einmal versuchen.`,
    { file_name: target.relative },
  );
}

/** Linux names a folder opened once as /proc/self/fd/N, whatever later happens to its path. */
const PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd");

/**
 * Runs `use` with a name for the folder `dir` that cannot be redirected: on Linux the open folder's
 * /proc/self/fd entry (a folder swapped for a symlink afterwards changes nothing), elsewhere `dir`
 * itself, re-checked by `writeAtomically`. Either way the folder must (still) be inside the workspace.
 */
async function inFolder<T>(
  dir: string,
  target: WorkspacePath,
  writing: boolean,
  use: (folder: string) => Promise<T>,
): Promise<T> {
  // A preview of a file in a folder that does not exist yet reads nothing and writes nothing.
  if (!writing && !(await lstat(dir).catch(ignore("a folder that is not there yet")))) return use(dir);
  const handle = PROC_FD ? await open(dir, constants.O_RDONLY | constants.O_DIRECTORY) : undefined;
  try {
    const folder = handle ? `/proc/self/fd/${handle.fd}` : dir;
    await checkInside(folder, target);
    return await use(folder);
  } finally {
    await handle?.close();
  }
}

async function checkInside(folder: string, target: WorkspacePath): Promise<void> {
  const real = await realpath(folder);
  if (real !== target.realRoot && !isInside(target.realRoot, real)) throw swappedError(target);
}

/**
 * Writes `text` as `name` in `folder` via a temporary file and a rename: readers see the old or the new
 * file, never half. Before and after the rename the folder must still be inside the workspace and hold
 * this very temporary file (without /proc a folder swapped for a symlink could redirect the path).
 */
async function writeAtomically(folder: string, name: string, text: string, target: WorkspacePath): Promise<void> {
  const tmp = join(folder, tempName());
  const same = (a: { dev: number; ino: number } | undefined, b: { dev: number; ino: number }) =>
    a?.dev === b.dev && a.ino === b.ino;
  const handle = await open(tmp, "wx");
  let written: { dev: number; ino: number };
  try {
    await handle.writeFile(text, "utf8");
    written = await handle.stat();
  } finally {
    await handle.close();
  }
  try {
    await checkInside(folder, target);
    if (!same(await lstat(tmp).catch(ignore("a temporary file that is gone is not the one written")), written))
      throw swappedError(target);
    await rename(tmp, join(folder, name));
    await checkInside(folder, target);
  } catch (error) {
    await rm(tmp, { force: true }).catch(ignore("the temporary file of a failed write may not exist"));
    throw error;
  }
}

/** A file system error as one German sentence naming only the workspace-relative path. */
function fileSystemError(error: unknown, relativePath: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof TravelError || typeof code !== "string") return error;
  const file = `„${relativePath}"`;
  const message =
    code === "EACCES" || code === "EPERM" || code === "EROFS"
      ? `Keine Schreibrechte für ${file} im Arbeitsordner; nichts geschrieben. Der Arbeitsordner muss beschreibbar sein (oder TRAVEL_WORKSPACE_DIR auf einen anderen zeigen).`
      : code === "ENOSPC" || code === "EDQUOT"
        ? `Kein Platz mehr auf dem Datenträger für ${file}; nichts geschrieben. Schaffe Platz und versuche es noch einmal.`
        : code === "ENAMETOOLONG"
          ? `Der Pfad von ${file} ist zu lang für das Dateisystem; nichts geschrieben. Wähle einen kürzeren Namen.`
          : code === "ENOENT" || code === "ENOTDIR" || code === "EEXIST"
            ? `Ein Ordner von ${file} wurde während des Speicherns entfernt oder ersetzt; nichts geschrieben. Bitte noch einmal versuchen.`
            : `${file} konnte nicht gespeichert werden (Fehlercode ${code}); nichts geschrieben.`;
  return new WorkspaceError("io", message, { file_name: relativePath });
}

/** One check-and-write at a time per file: this server process owns the workspace. */
const fileQueues = new Map<string, Promise<unknown>>();

async function oneAtATime<T>(key: string, step: () => Promise<T>): Promise<T> {
  const run = (fileQueues.get(key) ?? Promise.resolve()).then(step);
  const tail = run.catch(ignore("the caller gets this step's failure; the queue goes on"));
  fileQueues.set(key, tail);
  try {
    return await run;
  } finally {
    if (fileQueues.get(key) === tail) fileQueues.delete(key);
  }
}

export async function saveTripPlan(workspace: string, args: SaveArgs): Promise<SaveTripPlanResult> {
  const target = await resolveWorkspacePath(workspace, args.file_name);
  const text = renderTripPlan(args.title, args.content);
  const outside = () =>
    new WorkspaceError("outside_workspace", `Der Dateiname "${args.file_name}" führt aus dem Arbeitsordner heraus.`, {
      file_name: args.file_name,
    });
  return oneAtATime(target.absolute.toLowerCase(), async () => {
    try {
      const dir = await locateFolder(target, !args.dry_run, outside);
      return await inFolder(dir, target, !args.dry_run, async (folder) => {
        const previous = await readCurrent(join(folder, target.name), target);
        const previousSha = previous === null ? null : sha256(previous);
        const base = {
          path: target.relative,
          existed: previous !== null,
          bytes: Buffer.byteLength(text, "utf8"),
          sha256: sha256(text),
          previous_sha256: previousSha,
        };
        if (args.dry_run) return { ...base, written: false, previous_content: previous, content: text };
        if (args.expected_sha256 !== undefined && args.expected_sha256 !== previousSha) {
          throw new WorkspaceError(
            "conflict",
            `"${target.relative}" wurde seit der Vorschau verändert; nichts geschrieben. Bitte die Vorschau neu anfordern.`,
            { file_name: args.file_name },
          );
        }
        await writeAtomically(folder, target.name, text, target);
        return { ...base, written: true };
      });
    } catch (error) {
      throw fileSystemError(error, target.relative);
    }
  });
}

export function renderSaveResult(r: SaveTripPlanResult): string {
  if (!r.written)
    return `Vorschau für ${r.path}: ${r.existed ? "Datei wird ersetzt" : "neue Datei"}, ${r.bytes} Bytes. Nichts geschrieben.`;
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
      annotations: {
        title: "Reiseplan speichern",
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async (args): Promise<CallToolResult> => {
      try {
        const result = await saveTripPlan(options.workspaceDir(), args);
        if (result.written) options.log(`save_trip_plan → ${result.path} geschrieben (${result.bytes} Bytes)`);
        return { content: [{ type: "text", text: renderSaveResult(result) }], structuredContent: { ...result } };
      } catch (error) {
        const message =
          error instanceof TravelError
            ? error.message
            : `Interner Fehler im Reise-Server bei save_trip_plan: ${errorText(error)}`;
        options.log(`save_trip_plan ${JSON.stringify({ file_name: args.file_name })} → Fehler: ${message}`);
        return { isError: true, content: [{ type: "text", text: message }] };
      }
    },
  );
}
