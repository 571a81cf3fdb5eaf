// JSON.parse's English SyntaxError as one German phrase for participants: V8's message names what it
// expected and where ("Expected ',' or '}' after property value in JSON at position 31"); each known
// wording maps to German, anything else becomes "Syntaxfehler", and the position is kept.

const PHRASES: readonly [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^Expected ',' or '\}' after property value/u, () => "nach einem Wert fehlt ',' oder '}'"],
  [/^Expected ',' or '\]' after array element/u, () => "nach einem Listenelement fehlt ',' oder ']'"],
  [/^Expected ':' after property name/u, () => "nach dem Feldnamen fehlt ':'"],
  [
    /^Expected (?:double-quoted )?property name(?: or '\}')?/u,
    () => "hier gehört ein Feldname in doppelten Anführungszeichen hin",
  ],
  [/^Unterminated string/u, () => 'eine Zeichenkette wird nicht geschlossen (fehlendes ")'],
  [
    /^Bad control character in string literal/u,
    () => "Steuerzeichen (z. B. ein Zeilenumbruch) mitten in einer Zeichenkette",
  ],
  [/^Bad escaped character/u, () => "ungültige Escape-Sequenz mit \\"],
  [/^Bad Unicode escape/u, () => "ungültige \\u-Escape-Sequenz"],
  [/^Unexpected non-whitespace character after JSON/u, () => "nach dem JSON-Wert folgt noch Text"],
  [/^Unexpected end of JSON input/u, () => "das JSON endet mitten im Wert (abgeschnitten?)"],
  [
    /^(?:No number after minus sign|Exponent part is missing a number|Unterminated fractional number)/u,
    () => "unvollständige Zahl",
  ],
  [/^Unexpected token '?(.)'?/u, (m) => `unerwartetes Zeichen '${m[1] ?? "?"}'`],
];

/** German text of a JSON.parse error, e.g. "bei Zeichen 32: nach einem Wert fehlt ',' oder '}'". */
export function jsonSyntaxErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let phrase = "Syntaxfehler";
  for (const [pattern, text] of PHRASES) {
    const m = message.match(pattern);
    if (m) {
      phrase = text(m);
      break;
    }
  }
  const position = /at position (\d+)/u.exec(message)?.[1];
  return position === undefined ? phrase : `bei Zeichen ${Number(position) + 1}: ${phrase}`;
}
