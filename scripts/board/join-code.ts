// A join code that is easy to read off a projector and to type: two German words and two digits
// ("fuchs-wolke-47"), from crypto randomness. Together with the per-address limit on wrong codes
// (server.ts) it keeps people outside the room from posting to the board.
import { randomInt } from "node:crypto";

const WORDS = [
  "apfel", "birne", "brezel", "dackel", "eule", "fuchs", "hafen", "igel", "kiwi", "linde", "mond", "nebel",
  "otter", "quelle", "regen", "sonne", "tanne", "wolke", "zwerg", "biber", "kamel", "tulpe", "anker", "kompass",
];

export function randomJoinCode(): string {
  const word = () => WORDS[randomInt(WORDS.length)]!;
  return `${word()}-${word()}-${String(randomInt(100)).padStart(2, "0")}`;
}
