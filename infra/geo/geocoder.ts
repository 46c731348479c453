// The geocoder contract (decisions.md §10): an address in, a point with its ISO country out.
// null means "no such place" (the caller answers 422); a service that cannot answer throws
// UnavailableError (503), so a flaky upstream is never mistaken for a bad address.

export interface GeocodedPlace {
  lat: number;
  lng: number;
  /** How the place is known, e.g. "Paris, France". */
  displayName: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
}

export interface Geocoder {
  geocode(address: string): Promise<GeocodedPlace | null>;
}
