-- Deleting a component version (host/src/components/mod.rs) asks whether a LIVE charge still
-- in progress holds a decision naming it; those are the claims with no answer yet. The
-- predicate is written exactly as that query states it.
create index idempotency_records_in_progress_idx on idempotency_records (created_at)
    where response_status = 0;
