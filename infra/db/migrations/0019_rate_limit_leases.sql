-- Rate-limit leases (issue 19): a request no longer writes here. Each hub node leases blocks of a
-- window's allowance from its row (one atomic statement grants min(asked, limit - leased)), admits
-- locally from what it holds, and writes back in batches about once a second: the requests it
-- counted (admitted and refused, for the alerts) and the allowance it did not use.
-- Old rows keep hits; a node of the previous release adds 1 to hits per request and never leases,
-- so during a rolling upgrade a key's window can admit up to its limit once per release.

-- Allowance granted to nodes minus what they gave back: never above the limit (a lowered limit
-- only stops new grants). Once every node has returned its rest, it is the window's admitted count.
ALTER TABLE rate_limit_windows ADD COLUMN leased integer NOT NULL DEFAULT 0;
-- The latest lease's grant, set together with leased, so that the lease statement can return it:
-- RETURNING sees only the new row before PostgreSQL 18.
ALTER TABLE rate_limit_windows ADD COLUMN granted integer NOT NULL DEFAULT 0;
-- hits (admitted and refused requests) now arrives in batches; a row starts with none.
ALTER TABLE rate_limit_windows ALTER COLUMN hits SET DEFAULT 0;
