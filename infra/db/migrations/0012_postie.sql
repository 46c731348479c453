-- postie (issue 8): agents' email addresses and their history, outbound sends, inbound mail,
-- suppression lists, and the per-tenant billing of sends beyond the monthly free quota.

-- Every address an agent has had, by local part (the domain is the hub's MAIL_DOMAIN, which may
-- change without renumbering anyone). `retired_at` null: the agent's current address. A retired
-- address keeps delivering to its agent for 30 days (agents/postie/README.md "Addresses"). Rows are
-- written by the triggers below, so every way an alias or a tenant slug changes (CLI, API, SQL)
-- leaves the history behind it, including changes made while postie is not running.
CREATE TABLE postie_addresses (
  id bigserial PRIMARY KEY,
  local_part text NOT NULL,               -- <alias> (official tenant) or <alias>.<tenant slug>
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  owner_agent_id text NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz
);

CREATE UNIQUE INDEX postie_addresses_current_key ON postie_addresses (local_part)
  WHERE retired_at IS NULL;
CREATE UNIQUE INDEX postie_addresses_agent_current_key ON postie_addresses (owner_agent_id)
  WHERE retired_at IS NULL;
CREATE INDEX postie_addresses_local_part_idx ON postie_addresses (local_part, retired_at);

-- Aliases are [a-z0-9-] and slugs [a-z0-9-] (no dots), so `alias.slug` never collides with an
-- official `alias`, and two tenants' addresses never collide either.
CREATE FUNCTION postie_local_part(alias text, tenant_id text, slug text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN alias IS NULL THEN NULL
    WHEN tenant_id = 'ten-official' THEN lower(alias)
    ELSE lower(alias) || '.' || lower(slug)
  END
$$;

-- Bring one agent's current address in line with its alias, tenant slug and deletion: a changed
-- address is retired (still delivering for 30 days), the new one becomes current. An address
-- that now names this agent ends any older claim on it, so mail never reaches a previous holder.
CREATE FUNCTION postie_sync_address(agent text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  want text;
  ten text;
BEGIN
  SELECT postie_local_part(a.alias, a.tenant_id, t.slug), a.tenant_id INTO want, ten
  FROM agents a JOIN tenants t ON t.id = a.tenant_id
  WHERE a.id = agent AND a.deleted_at IS NULL;

  UPDATE postie_addresses SET retired_at = now()
  WHERE owner_agent_id = agent AND retired_at IS NULL AND local_part IS DISTINCT FROM want;

  IF want IS NULL OR EXISTS (
    SELECT 1 FROM postie_addresses WHERE owner_agent_id = agent AND retired_at IS NULL
  ) THEN
    RETURN;
  END IF;

  DELETE FROM postie_addresses
  WHERE local_part = want AND (retired_at IS NOT NULL OR owner_agent_id <> agent);
  INSERT INTO postie_addresses (local_part, tenant_id, owner_agent_id) VALUES (want, ten, agent);
END
$$;

CREATE FUNCTION postie_agents_address_trigger() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM postie_sync_address(NEW.id);
  RETURN NULL;
END
$$;

CREATE TRIGGER postie_agents_address
AFTER INSERT OR UPDATE OF alias, tenant_id, deleted_at ON agents
FOR EACH ROW EXECUTE FUNCTION postie_agents_address_trigger();

CREATE FUNCTION postie_tenants_address_trigger() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.slug IS DISTINCT FROM OLD.slug THEN
    PERFORM postie_sync_address(a.id) FROM agents a WHERE a.tenant_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER postie_tenants_address
AFTER UPDATE OF slug ON tenants
FOR EACH ROW EXECUTE FUNCTION postie_tenants_address_trigger();

-- The agents that existed before this migration.
SELECT postie_sync_address(id) FROM agents WHERE alias IS NOT NULL AND deleted_at IS NULL;

-- Outbound mail, one row per send_email. Written (pending) before the relay is called, updated
-- after (sent with the relay's message id, or failed with the reason). Sends refused before the
-- relay (suppressed recipient, no credit) are recorded as failed too, so get_stats counts them.
CREATE TABLE postie_sends (
  id text PRIMARY KEY,                    -- ml_<24 hex>
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  owner_agent_id text NOT NULL,           -- the hub-verified sender
  from_address text NOT NULL,
  to_address text NOT NULL,
  subject text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
  error text,
  message_id text,                        -- the Message-ID header the relay accepted
  relay_response text,
  -- The calendar month (UTC, first day) whose quota the send counted against; null when it never
  -- counted (refused before the relay).
  billed_month date,
  paid boolean NOT NULL DEFAULT false,    -- beyond the month's free quota
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX postie_sends_owner_idx ON postie_sends (tenant_id, owner_agent_id, created_at);

-- Mail the inbound listener accepted for an agent, with what it was sent to (plus tag included).
CREATE TABLE postie_inbound (
  id text PRIMARY KEY,                    -- in_<24 hex>
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  owner_agent_id text NOT NULL,           -- the recipient agent
  address text NOT NULL,                  -- the RCPT TO address, as sent (lowercased)
  tag text,                               -- the +tag of the address, if any
  mail_from text NOT NULL DEFAULT '',     -- the envelope sender ('' for bounces)
  from_address text NOT NULL DEFAULT '',  -- the From header
  from_name text NOT NULL DEFAULT '',
  subject text NOT NULL DEFAULT '',
  body text NOT NULL DEFAULT '',
  message_id text,
  kind text NOT NULL DEFAULT 'mail' CHECK (kind IN ('mail', 'bounce', 'complaint')),
  size integer NOT NULL DEFAULT 0,
  task_id text,                           -- the A2A task that delivered it to the agent
  delivery_error text,                    -- why the hub could not hand it over, if it could not
  received_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz
);

CREATE INDEX postie_inbound_owner_idx ON postie_inbound (tenant_id, owner_agent_id, received_at);

-- Addresses mail is never sent to, nor accepted from. scope 'tenant': one tenant's list, managed
-- by its agents; scope 'global': the hub's list (hard bounces and complaints), owned by the
-- official tenant and not removable by other tenants.
CREATE TABLE postie_suppressions (
  id bigserial PRIMARY KEY,
  scope text NOT NULL CHECK (scope IN ('tenant', 'global')),
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  address text NOT NULL CHECK (address = lower(address)),
  reason text NOT NULL DEFAULT '',
  source text NOT NULL CHECK (source IN ('manual', 'bounce', 'complaint')),
  created_by_agent_id text,               -- null for the listener's own entries
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (scope, tenant_id, address)
);

CREATE INDEX postie_suppressions_address_idx ON postie_suppressions (address);

-- Billing state per tenant (agents/postie/billing.ts): the overage accrued so far, in units of
-- 0.0001 currency units (a send costs 12), and the whole cents already debited for it. The
-- accrual carries across months; only the free quota restarts.
CREATE TABLE postie_billing (
  tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  accrued_units bigint NOT NULL DEFAULT 0 CHECK (accrued_units >= 0),
  debited_cents bigint NOT NULL DEFAULT 0 CHECK (debited_cents >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Sends counted against each calendar month's free quota (pending and sent; a failed send is
-- taken back).
CREATE TABLE postie_monthly (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  month date NOT NULL,
  sends integer NOT NULL DEFAULT 0 CHECK (sends >= 0),
  PRIMARY KEY (tenant_id, month)
);
