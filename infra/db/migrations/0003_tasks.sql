-- Tasks as projected from the partition logs (JetStream holds the truth; this table is the index
-- behind ListTasks, conversation look-ups and statistics). Written only by the task projector,
-- which applies a snapshot only when its rev is newer than the row's.
create table tasks (
  id text primary key,
  context_id text not null,
  sender_id text not null,
  recipient_id text not null,
  sender_tenant_id text not null,
  recipient_tenant_id text not null,
  state text not null,
  rev integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  task jsonb not null
);
create index tasks_by_sender on tasks (sender_id, created_at desc, id desc);
create index tasks_by_recipient on tasks (recipient_id, created_at desc, id desc);
create index tasks_by_context on tasks (context_id, created_at desc);
