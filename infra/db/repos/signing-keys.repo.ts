// The hub's envelope signing keys: created on first start, shared by every node through
// PostgreSQL. The oldest key signs; all keys are published for verification.
import { generateSigningKey, type SigningKey } from '../../../runtime/envelope/index.js';
import { jsonText, type Queryable } from './sql.js';

interface Row {
  kid: string;
  privateKeyPem: string;
  publicJwk: SigningKey['publicJwk'];
}

export async function loadSigningKeys(sql: Queryable): Promise<SigningKey[]> {
  const read = () =>
    sql.unsafe<Row[]>(
      'select kid, private_key_pem, public_jwk from hub_signing_keys order by created_at, kid'
    );
  let rows = await read();
  if (rows.length === 0) {
    const k = generateSigningKey();
    await sql.unsafe(
      `insert into hub_signing_keys (kid, private_key_pem, public_jwk) values ($1, $2, $3::text::jsonb)
       on conflict (kid) do nothing`,
      [k.kid, k.privateKeyPem, jsonText(k.publicJwk)]
    );
    rows = await read();
  }
  return rows.map((r) => ({ kid: r.kid, privateKeyPem: r.privateKeyPem, publicJwk: r.publicJwk }));
}
