// Activity words (German and English) → one of four canonical activities.

export const ACTIVITIES = ["hiking", "running", "beach", "sightseeing"] as const;
export type Activity = (typeof ACTIVITIES)[number];

export const ACTIVITY_LABEL_DE: Record<Activity, string> = {
  hiking: "Wandern",
  running: "Joggen/Laufen",
  beach: "Strand",
  sightseeing: "Kultur/Sightseeing",
};

/**
 * Search radius of rank_spots when none is given: hiking areas and beaches usually lie outside the
 * city, runs and sights inside it. Large enough that each demo city with curated places for an activity
 * has at least one of them inside; small enough for a quick Overpass query.
 */
export const DEFAULT_RADIUS_KM: Record<Activity, number> = {
  hiking: 25,
  running: 10,
  beach: 30,
  sightseeing: 10,
};

const WORDS: Record<Activity, string[]> = {
  hiking: ["wandern", "wanderung", "wanderungen", "hiking", "hike", "trekking", "bergwandern", "berge", "natur"],
  running: ["joggen", "jogging", "laufen", "lauf", "running", "run", "rennen", "dauerlauf"],
  beach: ["strand", "straende", "strande", "beach", "baden", "schwimmen", "swimming", "meer"],
  sightseeing: [
    "kultur",
    "museum",
    "museen",
    "sightseeing",
    "sehenswuerdigkeiten",
    "sehenswurdigkeiten",
    "besichtigung",
    "stadtbummel",
    "culture",
    "sights",
  ],
};

export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/ä/g, "ae")
    .replace(/ö/g, "oe")
    .replace(/ü/g, "ue")
    .replace(/ß/g, "ss")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .trim();
}

export interface ResolvedActivity {
  activity: Activity;
  /** Set when the word was not recognised and the default was used. */
  note?: string;
}

export function resolveActivity(word: string): ResolvedActivity {
  const folded = foldText(word)
    .replace(/[^a-z]+/g, " ")
    .trim();
  for (const activity of ACTIVITIES) {
    if (WORDS[activity].some((w) => folded === w || folded.split(" ").includes(w))) return { activity };
  }
  return {
    activity: "sightseeing",
    note:
      `Aktivität "${word}" ist unbekannt; verwendet wird "sightseeing". ` +
      `Bekannt sind: wandern/hiking, joggen/laufen/running, strand/beach, kultur/museum/sightseeing.`,
  };
}
