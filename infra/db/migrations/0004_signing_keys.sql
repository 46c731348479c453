-- Keys that sign the x-hub envelope (decisions.md §4). Every node signs with the oldest key, so
-- two nodes starting on an empty table at once (each inserting one) still agree; the JWKS at
-- /.well-known/hub-keys.json lists them all.
create table hub_signing_keys (
  kid text primary key,
  private_key_pem text not null,
  public_jwk jsonb not null,
  created_at timestamptz not null default clock_timestamp()
);
