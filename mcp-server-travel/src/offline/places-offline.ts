// Offline parks and spots: the curated places of data/travel/places.json within the radius. When none
// lies inside but one is close by, the note names the nearest one and the radius that would reach it.
import { ACTIVITY_LABEL_DE, type Activity } from "../activities.js";
import { distanceKm, round, type LatLon } from "../geo.js";
import type { Place, PlacesResult, PlacesService } from "../services/types.js";
import type { OfflinePlace } from "./data.js";

/** Which curated kinds serve an activity (a park is also good for a run). */
const KINDS_FOR: Record<Activity | "park", OfflinePlace["kind"][]> = {
  park: ["park"],
  hiking: ["hiking"],
  running: ["running", "park"],
  beach: ["beach"],
  sightseeing: ["sightseeing"],
};

/** Curated places farther away than this count as "none for this area" (the tools' largest radius). */
export const NEARBY_LIMIT_KM = 50;

const LABEL_DE: Record<Activity | "park", string> = { ...ACTIVITY_LABEL_DE, park: "Parks" };

const km = (x: number) => String(round(x, 1)).replace(".", ",");

export class OfflinePlaces implements PlacesService {
  constructor(private readonly places: OfflinePlace[]) {}

  parks(center: LatLon, radiusKm: number): Promise<PlacesResult> {
    return Promise.resolve(this.within("park", center, radiusKm));
  }

  spots(center: LatLon, radiusKm: number, activity: Activity): Promise<PlacesResult> {
    return Promise.resolve(this.within(activity, center, radiusKm));
  }

  private within(kind: Activity | "park", center: LatLon, radiusKm: number): PlacesResult {
    const kinds = KINDS_FOR[kind];
    const candidates = this.places
      .filter((p) => kinds.includes(p.kind))
      .map((p) => ({ place: p, distance: distanceKm(center, p) }));
    const places: Place[] = candidates
      .filter((c) => c.distance <= radiusKm)
      .map(({ place: p }) => ({
        name: p.name,
        lat: p.lat,
        lon: p.lon,
        kind: p.kind,
        description: p.description || null,
      }));
    if (places.length > 0) {
      return {
        places,
        source: "offline",
        note: "Offline-Modus: kuratierte Orte aus den mitgelieferten Daten, keine vollständige Liste.",
      };
    }
    return { places, source: "offline", note: noneInsideNote(kind, radiusKm, candidates) };
  }
}

function noneInsideNote(
  kind: Activity | "park",
  radiusKm: number,
  candidates: { place: OfflinePlace; distance: number }[],
): string {
  const label = LABEL_DE[kind];
  const nearest = candidates.reduce<(typeof candidates)[number] | undefined>(
    (best, c) => (!best || c.distance < best.distance ? c : best),
    undefined,
  );
  if (nearest && nearest.distance <= NEARBY_LIMIT_KM) {
    const suggestion = Math.min(NEARBY_LIMIT_KM, Math.ceil(nearest.distance));
    return (
      `Offline-Modus: Im Umkreis von ${km(radiusKm)} km liegt kein mitgelieferter Ort für ${label}. ` +
      `Der nächste, „${nearest.place.name}“, ist ${km(nearest.distance)} km entfernt. ` +
      `Mit einem größeren Umkreis (z. B. radius_km: ${suggestion}) wird er gefunden.`
    );
  }
  const cities = [...new Set(candidates.map((c) => c.place.city))].sort((a, b) => a.localeCompare(b, "de"));
  return (
    `Offline-Modus: Für diese Gegend sind keine Orte für ${label} mitgeliefert (auch nicht im Umkreis von ${NEARBY_LIMIT_KM} km). ` +
    (cities.length > 0 ? `Mitgeliefert sind sie nur für diese Demo-Städte: ${cities.join(", ")}.` : "")
  ).trim();
}
