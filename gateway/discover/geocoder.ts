// The geocoder the directory needs (decisions.md §10). The composition root passes one built by
// infra/geo (offline gazetteer or Nominatim-compatible service): the gateway imports only infra/db.

export interface GeocodedPlace {
  lat: number;
  lng: number;
  displayName: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
}

export interface Geocoder {
  /** The place, or null when the address names none; throws UnavailableError when it cannot tell. */
  geocode(address: string): Promise<GeocodedPlace | null>;
}
