// Offline parks and spots: the curated places of data/travel/places.json within the radius.
import type { Activity } from "../activities.js";
import { distanceKm, type LatLon } from "../geo.js";
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
    const places: Place[] = this.places
      .filter((p) => kinds.includes(p.kind) && distanceKm(center, p) <= radiusKm)
      .map((p) => ({ name: p.name, lat: p.lat, lon: p.lon, kind: p.kind, description: p.description || null }));
    return {
      places,
      source: "offline",
      note:
        places.length === 0
          ? "Offline-Modus: Für diese Gegend sind keine passenden Orte mitgeliefert (nur ausgewählte Demo-Städte)."
          : "Offline-Modus: kuratierte Orte aus den mitgelieferten Daten, keine vollständige Liste.",
    };
  }
}
