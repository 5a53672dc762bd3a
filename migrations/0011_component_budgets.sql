-- Per-version budgets (issue 21): the fuel and linear memory a version's calls may use, set by
-- an operator within the maxima `pixgate serve` is given (PIXGATE_COMPONENT_MAX_FUEL,
-- PIXGATE_COMPONENT_MAX_MEMORY_BYTES). Null: the sandbox's default (DESIGN.md section 9,
-- 11,000,000 fuel and 16 MiB). The maxima are not stored: an operator may lower them later,
-- and a version over the new maximum then runs with the maximum (host/src/components/mod.rs).

alter table component_versions add column fuel bigint
    constraint component_versions_fuel_check check (fuel is null or fuel >= 1);
alter table component_versions add column memory_bytes bigint
    constraint component_versions_memory_bytes_check
        check (memory_bytes is null or memory_bytes >= 65536);
