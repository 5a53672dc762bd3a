-- A label people can tell versions apart by (issue 31): the file or crate name, or what the
-- uploader chose, shown beside the sha256 in the CLI, the console and the audit trail. Expand
-- only: nullable (the versions stored before, and the bundled ones until their next start, have
-- none; the sha256 stays the version's name).
alter table component_versions add column label text;
