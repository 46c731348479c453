-- A2A push notifications (issue 27): a caller registers a URL for a task, and every status and
-- artifact update of the task is POSTed there, in order. The updates themselves are not copied
-- here: they are the task's own `events`, durable in the partition log and projected (with every
-- event) into `tasks`, which a new owner rewrites from the log after a crash. A config only
-- remembers how far it has been delivered (`delivered_rev`), so "what is left to push" is
-- `tasks.rev > delivered_rev`, and an acknowledged update survives any hub process dying.
CREATE TABLE push_configs (
  task_id text NOT NULL,
  id text NOT NULL,                         -- the caller's config id (or one the hub made up)
  owner_agent_id text NOT NULL,             -- who registered it: only they see or delete it
  owner_tenant_id text NOT NULL,
  dialect text NOT NULL CHECK (dialect IN ('hub', 'v1', 'v0.3')),  -- the payload shapes
  url text NOT NULL,
  token text,                               -- sent back as X-A2A-Notification-Token
  auth_scheme text,                         -- Authorization: <scheme> <credentials>
  auth_credentials text,
  delivered_rev integer NOT NULL DEFAULT 0, -- the last task event the receiver acknowledged
  attempts integer NOT NULL DEFAULT 0,      -- failed attempts since the last success
  next_at timestamptz NOT NULL DEFAULT now(),  -- due time, also the claim's lease
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'done', 'failed')),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, owner_agent_id, id)
);

-- The pusher's claim reads active configs that are due; finished ones drop out of the index.
CREATE INDEX push_configs_due_idx ON push_configs (next_at) WHERE status = 'active';
