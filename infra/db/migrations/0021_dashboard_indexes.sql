-- The dashboard's live task feed (GET /api/tasks/stream) asks the tasks index, about once a second
-- per open feed, for the rows written in the last few seconds. Without an index on updated_at that
-- is a scan of the whole table; with it, a short range.
create index tasks_by_updated on tasks (updated_at);

-- A webhook's recent deliveries (GET /api/webhooks/:id/deliveries), newest first.
create index webhook_deliveries_by_webhook on webhook_deliveries (webhook_id, created_at desc);
