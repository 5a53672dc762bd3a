#!/usr/bin/env python3
"""Migrations roll (issue 35, DESIGN.md section 19): expand, then contract.

A rolling upgrade runs the previous release beside this one on the migrated database, so a
migration may only add (tables, columns that are nullable or have a default, indexes,
constraints the previous release's writes keep). This check refuses a statement that takes
something away from under the previous release:

- `drop table T`, unless the same migration makes `T` again (a SQLite table rebuild: copy,
  drop, create, copy back) or made `T` itself (the rebuild's copy);
- `alter table ... drop column`, `... rename column`, `alter table A rename to B` (unless `A` was
  made by the same migration: the rebuild's new table taking the old name);
- `alter table ... add column ... not null` without a `default`;
- `alter table ... alter column ... set not null`.

A migration that contracts on purpose says which release stopped using what it removes, on a
line of its own: `-- contract: <release or commit> stopped using <what>`. Released migrations
are never edited (their checksum is in every database), so the marker is for new files.

Usage: .ci/migrations-check.py [DIR, default migrations]; .ci/migrations-check.py --self-test
"""
import re
import sys
from pathlib import Path

CONTRACT = re.compile(r"^\s*--\s*contract:\s*\S.*\bstopped using\b\s*\S", re.I | re.M)


def statements(sql):
    """The statements of `sql`, comments removed, lower-cased, whitespace folded."""
    text = re.sub(r"--[^\n]*", "", sql)
    return [" ".join(s.split()).lower() for s in text.split(";") if s.strip()]


def problems(sql):
    """What in `sql` would break the previous release, as sentences."""
    if CONTRACT.search(sql):
        return []
    found = []
    stmts = statements(sql)
    made = set()
    for i, s in enumerate(stmts):
        m = re.match(r"create table (?:if not exists )?(\w+)", s)
        if m:
            made.add(m.group(1))
        m = re.match(r"drop table (?:if exists )?(\w+)", s)
        if m:
            name = m.group(1)
            remade = any(
                re.match(rf"create table (?:if not exists )?{name}\b", later)
                or re.match(rf"alter table \w+ rename to {name}\b", later)
                for later in stmts[i + 1:]
            )
            if name not in made and not remade:
                found.append(f"drops table {name}")
        m = re.match(r"alter table (\w+) rename to (\w+)", s)
        if m and m.group(1) not in made:
            found.append(f"renames table {m.group(1)} to {m.group(2)}")
        if re.match(r"alter table \w+ drop column", s) or re.match(r"alter table \w+ drop (?!constraint)\w+", s):
            found.append(f"drops a column: {s[:80]}")
        if re.match(r"alter table \w+ rename column", s):
            found.append(f"renames a column: {s[:80]}")
        if re.match(r"alter table \w+ add column", s) and " not null" in s and " default " not in s:
            found.append(f"adds a NOT NULL column without a default: {s[:80]}")
        if re.match(r"alter table \w+ alter column \w+ set not null", s):
            found.append(f"makes a column NOT NULL: {s[:80]}")
    return found


def self_test():
    cases = [
        ("create table a (id text); create index a_idx on a (id);", []),
        ("alter table a add column b text; alter table a add column c bigint not null default 0;", []),
        ("drop table a;", ["drops table a"]),
        ("alter table a drop column b;", ["drops a column: alter table a drop column b"]),
        ("alter table a rename column b to c;", ["renames a column: alter table a rename column b to c"]),
        ("alter table a add column b text not null;", ["adds a NOT NULL column without a default: alter table a add column b text not null"]),
        ("alter table a alter column b set not null;", ["makes a column NOT NULL: alter table a alter column b set not null"]),
        ("alter table a rename to b;", ["renames table a to b"]),
        # SQLite's rebuild: copy, drop, create again, copy back, drop the copy.
        ("create table a_1 as select * from a; drop table a; create table a (id text);"
         " insert into a select * from a_1; drop table a_1;", []),
        # The other rebuild: a new table takes the old one's name.
        ("create table a_2 (id text); insert into a_2 select * from a; drop table a;"
         " alter table a_2 rename to a;", []),
        ("-- contract: 0.9.0 stopped using a.b\nalter table a drop column b;", []),
        ("-- contract: soon\nalter table a drop column b;", ["drops a column: alter table a drop column b"]),
        ("-- drop table a;\nselect 1;", []),
    ]
    failed = 0
    for sql, want in cases:
        got = problems(sql)
        if got != want:
            failed += 1
            print(f"self-test: {sql!r}: {got} != {want}", file=sys.stderr)
    if failed:
        sys.exit(1)
    print(f"migrations-check: self-test passed ({len(cases)} cases)")


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "migrations")
    files = sorted(folder.glob("*.sql"))
    if not files:
        sys.exit(f"migrations-check: no migrations in {folder}")
    bad = 0
    for path in files:
        for problem in problems(path.read_text()):
            bad += 1
            print(f"{path}: {problem}", file=sys.stderr)
    if bad:
        print(
            "migrations-check: a rolling upgrade runs the previous release on the migrated"
            " database; expand only, or say which release stopped using what goes"
            " (`-- contract: <release> stopped using <what>`; docs/src/operations/upgrades.md)",
            file=sys.stderr,
        )
        sys.exit(1)
    print(f"migrations-check: {len(files)} migrations expand only")


if __name__ == "__main__":
    main()
