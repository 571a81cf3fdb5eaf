// Short previews of long texts and JSON for notebook output and terminals.

/** The first `maxLines` lines of a text, then "… N weitere Zeilen" when there are more. */
export function firstLines(text: string, maxLines = 12): string {
  const lines = text.split("\n");
  if (lines.length <= maxLines) return text;
  const more = lines.length - maxLines;
  return `${lines.slice(0, maxLines).join("\n")}\n… ${more} weitere ${more === 1 ? "Zeile" : "Zeilen"}`;
}

/** A value as indented JSON, cut to its first lines (see firstLines). */
export function jsonPreview(value: unknown, maxLines = 12): string {
  return firstLines(JSON.stringify(value, null, 2) ?? String(value), maxLines);
}

/** A value as one line of JSON, cut after `max` characters. */
export function shortJson(value: unknown, max = 200): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
