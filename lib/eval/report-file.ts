// Reading a report written by `eval:agent --json` back (for `--vergleich`): a zod check of the fields the
// pages use, with German errors that name the file and the field.
import { readFileSync } from "node:fs";
import * as z from "zod";
import { errorText } from "../util.js";
import type { EvalReport } from "./report.js";
import { KitError } from "../errors.js";

/** A report file that cannot be compared: which file, and what to do. */
export class ReportFileError extends KitError {
  override name = "ReportFileError";
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
  }
}

const germanErrors = z.locales.de().localeError;
const rate = z.number().min(0).max(1);
const figures = {
  tasks: z.number(),
  passAt1: rate,
  passK: rate,
  planValidity: rate.nullable(),
  secondsPerTask: z.number().min(0),
};

// Loose objects: the pages read these fields; everything else is kept as it is.
const reportShape = z.looseObject({
  summary: z.looseObject({ ...figures, k: z.number().int().min(1), categories: z.array(z.string()) }),
  categories: z.array(z.looseObject({ ...figures, category: z.string(), label: z.string() })),
  tasks: z.array(
    z.looseObject({
      id: z.string(),
      category: z.string(),
      passes: z.number(),
      runs: z.number(),
      failures: z.array(z.unknown()),
    }),
  ),
  meta: z.looseObject({ style: z.string(), complete: z.boolean() }),
});

/** Reads and checks one report file. */
export function loadReportFile(file: string): EvalReport {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ReportFileError(
      `Bericht ${file} ist nicht lesbar oder kein JSON (${errorText(error)}).\n  → Eine Datei angeben, die npm run eval:agent -- --json DATEI geschrieben hat.`,
      file,
    );
  }
  const parsed = reportShape.safeParse(value, { error: germanErrors });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "(Wurzel)";
    throw new ReportFileError(
      `Bericht ${file}, Feld ${field}: ${issue?.message ?? "ungültig"}.\n  → Ist das ein Bericht von npm run eval:agent -- --json DATEI? Den Lauf wiederholen.`,
      file,
    );
  }
  return parsed.data as unknown as EvalReport;
}
