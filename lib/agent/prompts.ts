// German prompts and messages for the planner (Teil 4); the half-agent's are in lib/half-agent/prompts.ts.
// Everything the model reads lives here (tool catalogs: lib/schema/text.ts), so notebooks can print and discuss it.
import type { ToolInfo } from "../mcp/types.js";
import { formatToolCatalog, formatToolSignatures } from "../schema/text.js";
import { compactJson } from "../plan/json.js";
import type { PlanParseError } from "../plan/plan.js";
import type { ToolOutcome } from "./executor.js";
import type { PlanProblem } from "../plan/check.js";

/** Who the assistant is when the math server is attached as well (CLI --mathe, notebooks): pass as `role`. */
export const TRAVEL_MATH_ROLE =
  "Du bist ein Assistent für Reisen und Rechnen: Reiseziele, Wetter, Ausflüge, Aktivitäten – und exakte Rechnungen mit den Rechen-Tools, auch mit Ergebnissen anderer Tools.";

export interface PlannerPromptOptions {
  /** Replaces the travel persona in the first line (e.g. TRAVEL_MATH_ROLE). Default: the travel persona. */
  role?: string;
  /** A ready catalog text (e.g. formatToolsForPrompt); default formatToolCatalog(tools) from lib/schema/text.ts. */
  catalog?: string;
  /** Fields available as `user.<feld>` (default: raw). */
  userFields?: readonly string[];
  /** Short variant for small context windows: core rules, no example, one line per tool. Default false. */
  compact?: boolean;
}

const PLAN_EXAMPLE = `Frage: "Wie warm wird es morgen in Lissabon, und welche Museen gibt es dort?"
Erste Antwort:
{"steps": [
  {"description": "Ort bestimmen", "tools": [
    {"id": "ort_lis", "name": "finde_ort", "arguments": {"name": "Lissabon"}}]},
  {"description": "Temperatur und Museen gleichzeitig abfragen", "tools": [
    {"id": "temp_lis", "name": "temperatur", "arguments": {"breite": {"$ref": "ort_lis.breite"}, "laenge": {"$ref": "ort_lis.laenge"}, "tag": "2030-05-02"}},
    {"id": "museen_lis", "name": "orte_suchen", "arguments": {"breite": {"$ref": "ort_lis.breite"}, "laenge": {"$ref": "ort_lis.laenge"}, "art": "museum"}}]}
 ],
 "final": null}
Antwort, nachdem die Tool-Ergebnisse da sind:
{"steps": [], "final": "Morgen werden in Lissabon bis zu 24 °C erwartet. Museen in der Nähe: …"}`;

/**
 * System prompt of the planner: role, plan format, `$ref` rules, loop rules, example, catalog. It holds
 * nothing that changes per day or run, so its saved KV state serves every day; the date follows it as
 * its own message (`todayMessage`, added by runAgent).
 */
export function buildPlannerSystemPrompt(tools: readonly ToolInfo[], options: PlannerPromptOptions = {}): string {
  const userFields = (options.userFields ?? ["raw"]).map((f) => `"user.${f}"`).join(", ");
  if (options.compact) {
    return `${options.role ? `${options.role} Du planst Tool-Aufrufe.` : "Du bist ein Reiseassistent und planst Tool-Aufrufe."}
Antworte immer nur mit einem JSON-Objekt: {"steps": [{"description": "…", "tools": [{"id": "…", "name": "…", "arguments": {…}}]}], "final": null}
- Tools eines Schritts laufen gleichzeitig; wer ein Ergebnis braucht, steht in einem späteren Schritt.
- Ergebnis weitergeben: {"$ref": "<id>.<feld>"}, z. B. "lat": {"$ref": "geo_rom.lat"}; Angaben des Nutzers: ${userFields}.
- Jede id läuft nur einmal; ausgeführte Aufrufe nicht ändern. Nichts raten.
- Sobald die Ergebnisse reichen: "steps": [] und die Antwort auf Deutsch in "final".
Tools:
${options.catalog ?? formatToolSignatures(tools)}`;
  }
  const catalog = options.catalog ?? formatToolCatalog(tools);
  return `${options.role ?? "Du bist ein Reiseassistent. Du beantwortest Fragen rund ums Reisen: Ziele, Wetter, Ausflüge, Aktivitäten, Sehenswertes."}
Was du nicht sicher weißt (Koordinaten, Wetter, Orte in der Nähe), holst du dir mit den Tools am Ende dieser Nachricht.
Kontext, den das System mitschickt (z. B. aus einer Wissensdatenbank), gilt als verlässlich.

# Antwortformat
Antworte in jeder Runde mit genau einem JSON-Objekt und sonst nichts:
{"steps": [{"description": "<was dieser Schritt erledigt>", "tools": [{"id": "<eindeutige id>", "name": "<Tool-Name>", "arguments": {…}}]}], "final": null}
- "steps" ist dein Plan. Alle Tools eines Schritts laufen gleichzeitig, sie dürfen also nicht voneinander abhängen. Ein Tool, das ein Ergebnis eines anderen braucht, gehört in einen späteren Schritt.
- "id" benennt diesen einen Aufruf (Buchstaben, Ziffern, "_" und "-"), z. B. "geo_rom".
- "name" ist genau einer der Tool-Namen unten.
- "arguments" ist ein Objekt mit den Feldern aus dem Eingabe-Schema des Tools. Optionale Felder, die du nicht brauchst, setzt du auf null.
- "final" bleibt null, solange noch Tools laufen sollen. Sonst steht dort deine Antwort an den Nutzer, auf Deutsch.

# Ergebnisse weitergeben mit $ref
Statt einen Wert abzuschreiben oder zu raten, verweist du auf ihn:
- {"$ref": "<id>.<pfad>"} setzt einen Wert aus dem Ergebnis des Aufrufs mit dieser id ein. Der Pfad beginnt direkt im Ergebnis: "geo_rom.lat" (nicht "geo_rom.result.lat"). Zahlen im Pfad wählen Listeneinträge: "parks_rom.parks.0.name".
- {"$ref": "<id>"} übergibt das ganze Ergebnis.
- {"$ref": "user.<feld>"} setzt Angaben aus der Nutzerfrage ein; verfügbar: ${userFields}.
- Jeder Verweis ersetzt den Wert eines einzelnen Arguments, etwa "lat": {"$ref": "geo_rom.lat"}. Das ganze "arguments"-Objekt ist nie ein Verweis, und ein Verweis-Objekt enthält nur das eine Feld "$ref".
- Nicht erlaubt im Pfad: "result" oder "arguments" direkt nach der id, und "__proto__", "constructor", "prototype" überall.

# Ablauf
- Nach jedem Plan führt das System die offenen Tools aus und schickt dir die Tool-Ergebnisse. Danach planst du weiter oder antwortest.
- Jede id läuft nur einmal. Ausgeführte Aufrufe darfst du im Plan stehen lassen oder weglassen, aber nicht verändern. Für einen neuen Versuch nimmst du eine neue id.
- Meldet ein Tool einen Fehler, ändere den Plan (andere Argumente, anderes Tool) oder erkläre in "final", was nicht möglich ist.
- Meldet das System Probleme mit deinem Plan, schicke einen korrigierten Plan.
- Brauchst du keine (weiteren) Tools, antworte mit "steps": [] und der Antwort in "final".
- Erfinde keine Argumente: Werte kommen aus der Frage (wörtlich oder per "user.…"), aus Tool-Ergebnissen (per $ref) oder sind eindeutige Angaben wie ein genanntes Datum.
- Fragen, die nichts mit Reisen zu tun haben, lehnst du freundlich ab: "steps": [] und die Ablehnung in "final".

# Beispiel (mit erfundenen Tools, die es hier nicht gibt)
${PLAN_EXAMPLE}

# Verfügbare Tools
${catalog}`;
}

/** Longest tool result (characters of JSON) shown to the model by default: a few results fit an 8k context. */
export const MAX_RESULT_CHARS = 3000;

/** User-role message with the outcomes of one iteration, one JSON line per call. */
export function toolResultsMessage(
  outcomes: readonly ToolOutcome[],
  options: { maxResultChars?: number } = {},
): string {
  const max = options.maxResultChars ?? MAX_RESULT_CHARS;
  const lines = outcomes.map((o) => {
    const entry: Record<string, unknown> = { id: o.toolId, tool: o.toolName, arguments: o.arguments };
    if (o.ok) entry.result = o.result;
    else entry.error = o.error;
    const text = compactJson(entry);
    if (text.length <= max) return text;
    const shortened = { ...entry, [o.ok ? "result" : "error"]: compactJson(o.ok ? o.result : o.error, max) };
    return compactJson(shortened);
  });
  const heldBack = outcomes.filter((o) => !o.ok && o.errorKind === "held_back").length;
  const failed = outcomes.filter((o) => !o.ok).length - heldBack;
  const hints: string[] = [];
  if (failed > 0)
    hints.push(
      `${failed === 1 ? "Ein Aufruf ist" : `${failed} Aufrufe sind`} fehlgeschlagen. Passe den Plan an (neue id für einen neuen Versuch) oder erkläre in "final", was nicht geht.`,
    );
  if (heldBack > 0) {
    hints.push(
      `${heldBack === 1 ? "Ein Aufruf wurde" : `${heldBack} Aufrufe wurden`} wegen der Reihenfolge zurückgehalten und noch nicht ausgeführt. Lass zurückgehaltene Aufrufe unverändert im Plan, wenn sie noch passen, sonst nimm sie heraus.`,
    );
  }
  if (hints.length === 0) hints.push('Plane weiter oder antworte mit "steps": [] und "final".');
  return `Tool-Ergebnisse:\n${lines.join("\n")}\n\n${hints.join("\n")}`;
}

/**
 * How the two messages after a failed plan begin (planProblemsMessage, planParseErrorMessage): the
 * evaluation's "feedback" ablation (eval/runner.ts) recognises the feedback by these, so a reworded
 * message keeps the ablation working.
 */
export const PLAN_FEEDBACK_LEADS = {
  problems: "Dein Plan wurde nicht ausgeführt.",
  parseError: "Deine Antwort war kein gültiger Plan:",
} as const;

/** User-role message listing why a plan was not executed. */
export function planProblemsMessage(problems: readonly PlanProblem[]): string {
  return `${PLAN_FEEDBACK_LEADS.problems} Probleme:\n${problems.map((p) => `- ${p.message}`).join("\n")}\n\nSchicke einen korrigierten Plan als ein JSON-Objekt mit "steps" und "final".`;
}

/** User-role message after unparsable output. */
export function planParseErrorMessage(error: Pick<PlanParseError, "message">): string {
  return `${PLAN_FEEDBACK_LEADS.parseError} ${error.message}\nAntworte nur mit einem JSON-Objekt der Form {"steps": [...], "final": null oder "<Antwort>"}.`;
}

/** User-role message when every planned step ran but no answer came. */
export const NUDGE_MESSAGE =
  'Alle geplanten Schritte sind ausgeführt und die Ergebnisse liegen vor. Antworte jetzt dem Nutzer: "steps": [] und deine Antwort in "final".';

/** Returned when the loop ends without an answer. */
export const FALLBACK_ANSWER =
  "Leider habe ich in der erlaubten Zahl an Planungsrunden keine Antwort gefunden. Bitte stelle die Frage etwas genauer oder versuche es noch einmal.";

export const ABORTED_ANSWER = "Die Bearbeitung wurde abgebrochen, bevor eine Antwort feststand.";

/** Returned when the language model itself fails (not the tools). */
export function llmErrorAnswer(message: string): string {
  return `Das Sprachmodell konnte keine Antwort erzeugen (${message.split("\n")[0]}). Bitte später erneut versuchen oder die Einstellungen prüfen.`;
}
