// Small geographic helpers (WGS84, great-circle distances).

const EARTH_RADIUS_KM = 6371.0088;

export interface LatLon {
  lat: number;
  lon: number;
}

const toRad = (deg: number): number => (deg * Math.PI) / 180;

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: LatLon, b: LatLon): number {
  const dLat = toRad(b.lat - a.lat);
  const dLon = toRad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * Rough door-to-door time: walking up to 2 km, otherwise public transport or car in a city
 * (straight line × 1.3 detour, 25 km/h average, 5 minutes to get going).
 */
export function travelEstimate(distance: number): { minutes: number; mode: "zu Fuß" | "ÖPNV/Auto" } {
  const routeKm = distance * 1.3;
  if (distance <= 2) return { minutes: Math.max(1, Math.round((routeKm / 4.5) * 60)), mode: "zu Fuß" };
  return { minutes: Math.round(5 + (routeKm / 25) * 60), mode: "ÖPNV/Auto" };
}
