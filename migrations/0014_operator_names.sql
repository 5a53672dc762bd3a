-- Operator names unique regardless of case (DESIGN.md section 13), expand then contract.
--
-- `name_key` is the form two names are compared in: NFKC, lower case, runs of spaces as one
-- (host/src/access.rs, `name_key`). It is computed by the server, not here: SQL's `lower` folds
-- ASCII only on SQLite and by collation on PostgreSQL, so it would key a name differently on
-- each backend and differently from a new operator's key.
--
-- Expand (this migration): the column is nullable, and unique among the operators not revoked
-- that have one. At start the server keys every row without a key, oldest first
-- (`Access::key_operator_names`). Two operators not revoked whose names differ only in case
-- may exist from before: the older one gets the key, the newer keeps none, keeps working, and
-- is logged at every start until one of the two is revoked; no new case twin of either can be
-- created. Adding the index cannot fail on an existing database, since every key starts null.
--
-- Contract (a later migration, once no unkeyed operator is left): `name_key` not null, and
-- the index on the name as sent (`operators_name_key`), which this one subsumes, dropped.
alter table operators add column name_key text;

create unique index operators_name_key_key on operators (name_key) where revoked_at is null;
