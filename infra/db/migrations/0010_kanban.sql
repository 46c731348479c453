-- The kanban agent's data (interface-spec "Kanban agent data"): boards, lanes and cards per calling
-- agent (tenant_id + owner_agent_id, from the hub-verified envelope), and each card's event history.
-- Nothing is deleted: boards, lanes and cards carry deleted_at, and every read filters on it.

CREATE TABLE kanban_boards (
  id text PRIMARY KEY,
  tenant_id text NOT NULL,
  owner_agent_id text NOT NULL,
  name text NOT NULL,
  slug text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);

-- Also the arbiter for the default board, which two concurrent first cards may both try to create.
CREATE UNIQUE INDEX kanban_boards_slug_key
  ON kanban_boards (tenant_id, owner_agent_id, slug) WHERE deleted_at IS NULL;

CREATE TABLE kanban_lanes (
  id text PRIMARY KEY,
  tenant_id text NOT NULL,
  owner_agent_id text NOT NULL,
  board_id text NOT NULL REFERENCES kanban_boards (id),
  name text NOT NULL,
  -- Steps of 10 in board order; every reorder renumbers the whole board.
  position integer NOT NULL,
  is_done boolean NOT NULL DEFAULT false,
  wip_limit integer CHECK (wip_limit IS NULL OR wip_limit >= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);

CREATE UNIQUE INDEX kanban_lanes_name_key
  ON kanban_lanes (board_id, lower(name)) WHERE deleted_at IS NULL;
CREATE INDEX kanban_lanes_owner_idx
  ON kanban_lanes (tenant_id, owner_agent_id, board_id, position) WHERE deleted_at IS NULL;

CREATE TABLE kanban_cards (
  id text PRIMARY KEY,
  tenant_id text NOT NULL,
  owner_agent_id text NOT NULL,
  board_id text NOT NULL REFERENCES kanban_boards (id),
  lane_id text NOT NULL REFERENCES kanban_lanes (id),
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  due_at timestamptz,
  priority integer CHECK (priority IS NULL OR priority BETWEEN 0 AND 5),
  labels text[] NOT NULL DEFAULT '{}',
  source_ref text,
  -- Set exactly while the card sits in an is_done lane.
  completed_at timestamptz,
  -- The lane the card left for a done lane: card:uncomplete goes back there while it still exists.
  completed_from_lane_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);

-- WIP counts and lane listings.
CREATE INDEX kanban_cards_lane_idx ON kanban_cards (lane_id) WHERE deleted_at IS NULL;
CREATE INDEX kanban_cards_owner_idx
  ON kanban_cards (tenant_id, owner_agent_id, board_id) WHERE deleted_at IS NULL;
CREATE INDEX kanban_cards_source_ref_idx
  ON kanban_cards (tenant_id, owner_agent_id, source_ref) WHERE deleted_at IS NULL;

CREATE TABLE kanban_card_events (
  id bigserial PRIMARY KEY,
  tenant_id text NOT NULL,
  owner_agent_id text NOT NULL,
  card_id text NOT NULL REFERENCES kanban_cards (id),
  kind text NOT NULL
    CHECK (kind IN ('created', 'updated', 'moved', 'completed', 'uncompleted', 'deleted')),
  details jsonb NOT NULL DEFAULT '{}',
  at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX kanban_card_events_card_idx ON kanban_card_events (card_id, id);
