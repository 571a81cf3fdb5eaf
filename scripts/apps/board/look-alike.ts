// Names that look the same on the projector: "Anna" and "Аnna" (Cyrillic А), "Ivan" and "lvan", "Ｍia" and
// "Mia". The board refuses a new name whose skeleton equals that of a name already there (state.ts).
//
// The skeleton follows the idea of Unicode's confusable skeleton (UTS #39): compatibility forms folded
// (NFKD: full-width letters, ligatures), the Cyrillic and Greek letters that look like Latin ones mapped
// to them, the classic Latin look-alikes (I/l/1/|, O/0, rn/m) merged, then lower case. It is a small,
// documented table for the scripts a German class uses, not UTS #39's full list (no package for it is
// installed in the kit); accents stay, so "Anna" and "Änna" remain two names.

/** Upper-case look-alikes, mapped before lower-casing (Greek Η looks like H, its lower case η like n). */
const UPPER: Record<string, string> = {
  // Cyrillic
  А: "A",
  В: "B",
  Е: "E",
  Ѕ: "S",
  І: "l",
  Ј: "J",
  К: "K",
  М: "M",
  Н: "H",
  О: "O",
  Р: "P",
  С: "C",
  Т: "T",
  У: "Y",
  Х: "X",
  Ү: "Y",
  Ӏ: "l",
  Ԛ: "Q",
  Ԝ: "W",
  // Greek
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "l",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
  // Latin
  I: "l",
};

/** Lower-case (and caseless) look-alikes. */
const LOWER: Record<string, string> = {
  // Cyrillic
  а: "a",
  в: "b",
  е: "e",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  ѕ: "s",
  і: "i",
  ј: "j",
  һ: "h",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  ӏ: "l",
  ү: "y",
  // Greek
  α: "a",
  γ: "y",
  ε: "e",
  η: "n",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ω: "w",
  // Latin and digits
  ı: "i",
  ɡ: "g",
  "0": "o",
  "1": "l",
  "|": "l",
};

/** What `name` looks like, for comparing names: equal skeletons look (nearly) the same on the projector. */
export function lookAlikeSkeleton(name: string): string {
  const mapped = [...name.normalize("NFKD")]
    .map((c) => UPPER[c] ?? c)
    .join("")
    .toLowerCase();
  return [...mapped]
    .map((c) => LOWER[c] ?? c)
    .join("")
    .replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu, "")
    .replace(/rn/g, "m")
    .replace(/\s+/gu, " ")
    .trim()
    .normalize("NFC");
}
