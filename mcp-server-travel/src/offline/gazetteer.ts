// Offline geocoding: looks a place up by name or alias in the bundled city list.
// Matching ignores case, accents and umlaut spelling ("Köln" = "koeln" = "Koln"); a part after a comma
// ("Valencia, Spanien") picks between cities of the same name.
import { NotFoundError } from "../errors.js";
import { distanceKm } from "../geo.js";
import type { GeoPlace, GeocodeService } from "../services/types.js";
import type { City } from "./data.js";

/**
 * Everything but letters, their combining marks and digits separates words (any script: "Αθήνα",
 * "София", "東京", "ぎふ" – whose dakuten stays a mark after NFD).
 */
const NON_WORD = /[^\p{L}\p{M}\p{N}]+/gu;

/** Accents on Latin and Greek letters ("á" → "a", "ή" → "η"); marks that make another letter elsewhere stay ("й", "ぎ"). */
const ACCENT_ON_LATIN_OR_GREEK = /([\p{Script=Latin}\p{Script=Greek}])[\u0300-\u036f]+/gu;

function withoutAccents(text: string): string {
  return text.normalize("NFD").replace(ACCENT_ON_LATIN_OR_GREEK, "$1").normalize("NFC");
}

/**
 * Folds text for comparison; umlauts are folded both as "ae" and as "a" by comparing two keys.
 * Empty keys (text without letters or digits) are left out.
 */
export function placeKeys(text: string): string[] {
  const lower = text.normalize("NFC").toLowerCase().replace(/ß/g, "ss");
  const umlautsAsE = lower.replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue");
  const key = (t: string) => withoutAccents(t).replace(NON_WORD, " ").trim();
  return [...new Set([key(umlautsAsE), key(lower)])].filter((k) => k !== "");
}

const COUNTRY_WORDS: Record<string, string[]> = {
  de: ["deutschland", "germany"],
  at: ["oesterreich", "osterreich", "austria"],
  ch: ["schweiz", "switzerland", "suisse", "svizzera"],
  es: ["spanien", "spain", "espana"],
  fr: ["frankreich", "france"],
  it: ["italien", "italy", "italia"],
  pt: ["portugal"],
  nl: ["niederlande", "netherlands", "holland"],
  gb: ["grossbritannien", "vereinigtes koenigreich", "england", "uk", "united kingdom", "great britain"],
  us: ["usa", "vereinigte staaten", "united states", "amerika"],
  gr: ["griechenland", "greece"],
  hr: ["kroatien", "croatia"],
  cz: ["tschechien", "czechia", "czech republic"],
  pl: ["polen", "poland"],
  dk: ["daenemark", "denmark"],
  se: ["schweden", "sweden"],
  no: ["norwegen", "norway"],
  tr: ["tuerkei", "turkey", "turkiye"],
};

function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

export class Gazetteer implements GeocodeService {
  private readonly index = new Map<string, City[]>();

  constructor(private readonly cities: City[]) {
    for (const city of cities) {
      for (const name of [city.name, ...city.aliases]) {
        for (const key of placeKeys(name)) {
          const list = this.index.get(key) ?? [];
          if (!list.includes(city)) list.push(city);
          this.index.set(key, list);
        }
      }
    }
  }

  /** Cities whose name or alias matches `text` exactly (after folding). */
  candidates(text: string): City[] {
    const out: City[] = [];
    for (const key of placeKeys(text)) for (const c of this.index.get(key) ?? []) if (!out.includes(c)) out.push(c);
    return out;
  }

  lookup(query: string): City {
    return this.resolve(query).city;
  }

  /**
   * Finds the city for a query. Tries, in order: the whole text; the part before a comma (the rest picks
   * the country); leading words ("Barcelona Spanien"); a name that contains the words ("Gran Canaria").
   */
  resolve(query: string): { city: City; partial: boolean } {
    const trimmed = query.trim();
    const parts = trimmed
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    const first = parts[0] ?? trimmed;
    let candidates = this.candidates(trimmed);
    let hints: string[] = [];
    let partial = false;
    if (candidates.length === 0 && parts.length > 1) {
      candidates = this.candidates(first);
      hints = parts.slice(1);
    }
    if (candidates.length === 0) {
      const words = first.split(/\s+/);
      for (let n = words.length - 1; n >= 1 && candidates.length === 0; n--) {
        candidates = this.candidates(words.slice(0, n).join(" "));
        hints = [words.slice(n).join(" "), ...parts.slice(1)];
      }
    }
    if (candidates.length === 0) {
      candidates = this.containing(first);
      hints = parts.slice(1);
      partial = candidates.length > 0;
    }
    if (candidates.length === 0) {
      const suggestions = this.suggest(first);
      throw new NotFoundError(
        `"${trimmed}" ist in den Offline-Daten nicht enthalten (${this.cities.length} Städte). ` +
          (suggestions.length ? `Meintest du: ${suggestions.join(", ")}? ` : "") +
          `Im Offline-Modus sind nur die mitgelieferten Städte bekannt.`,
        query,
      );
    }
    if (hints.length > 0) {
      const hinted = candidates.filter((c) => hints.some((h) => this.countryMatches(c, h)));
      if (hinted.length > 0) candidates = hinted;
    }
    return { city: [...candidates].sort((a, b) => (b.population ?? 0) - (a.population ?? 0))[0]!, partial };
  }

  /** Cities whose name or alias contains the text as whole words. */
  private containing(text: string): City[] {
    const key = placeKeys(text)[0] ?? "";
    if (key.length < 3) return [];
    return this.cities.filter((c) =>
      [c.name, ...c.aliases].some((n) => placeKeys(n).some((k) => ` ${k} `.includes(` ${key} `))),
    );
  }

  private countryMatches(city: City, hint: string): boolean {
    const keys = placeKeys(hint);
    const own = [
      ...placeKeys(city.country),
      city.country_code.toLowerCase(),
      ...(COUNTRY_WORDS[city.country_code.toLowerCase()] ?? []),
    ];
    return keys.some((k) => own.includes(k));
  }

  /** Up to `count` city names that look like `text`. */
  suggest(text: string, count = 3): string[] {
    const key = placeKeys(text)[0] ?? "";
    const scored = this.cities.map((city) => {
      const names = [city.name, ...city.aliases].map((n) => placeKeys(n)[0] ?? "");
      const best = Math.min(
        ...names.map((n) =>
          key.length >= 3 && n.startsWith(key) ? 0 : levenshtein(key, n) / Math.max(1, Math.max(key.length, n.length)),
        ),
      );
      return { name: city.name, best };
    });
    return scored
      .filter((s) => s.best <= 0.5)
      .sort((a, b) => a.best - b.best || a.name.localeCompare(b.name))
      .slice(0, count)
      .map((s) => s.name);
  }

  async geocode(query: string): Promise<GeoPlace> {
    const { city, partial } = this.resolve(query);
    return {
      lat: city.lat,
      lon: city.lon,
      display_name: `${city.name}, ${city.country}`,
      country: city.country,
      source: "offline",
      ...(partial ? { note: `"${query.trim()}" als ${city.name} verstanden (Offline-Daten kennen nur Städte).` } : {}),
    };
  }

  nearest(lat: number, lon: number): { city: City; distanceKm: number } {
    let best = this.cities[0]!;
    let bestD = Infinity;
    for (const c of this.cities) {
      const d = distanceKm({ lat, lon }, c);
      if (d < bestD) {
        best = c;
        bestD = d;
      }
    }
    return { city: best, distanceKm: bestD };
  }
}
