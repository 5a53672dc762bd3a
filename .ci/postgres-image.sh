#!/usr/bin/env bash
# A PostgreSQL image made here, since no registry image can be pulled on this project's
# machines: Debian bookworm's postgresql-15 from debootstrap, with an entrypoint that reads the
# official image's variables (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA), so that
# .ci/compose.override.yaml only swaps deploy/compose.yaml's image.
#
#   .ci/postgres-image.sh [TAG]     # default localhost/postgres:ci
#
# Needs debootstrap and buildah (Debian's packages) and Debian's mirror.
set -euo pipefail
tag=${1:-localhost/postgres:ci}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include=postgresql-15 bookworm "$root" http://deb.debian.org/debian >/dev/null
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* \
  "$root"/usr/share/man/*
mkdir -p "$root/var/lib/postgresql/data"
chroot "$root" chown -R postgres:postgres /var/lib/postgresql
cat >"$root/usr/local/bin/docker-entrypoint.sh" <<'SH'
#!/bin/sh
# The official image's first start, as far as deploy/compose.yaml uses it: a cluster owned by
# POSTGRES_USER with its password (scram over the network), the database POSTGRES_DB.
set -eu
bin=/usr/lib/postgresql/15/bin
: "${PGDATA:=/var/lib/postgresql/data}" "${POSTGRES_USER:=postgres}"
# A new volume is root's: give it to postgres, then run as postgres.
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --clear-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  pw=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pw"
  "$bin/initdb" -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pw" --auth-local=trust \
    --auth-host=scram-sha-256 >/dev/null
  rm -f "$pw"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "${POSTGRES_DB:=$POSTGRES_USER}" != postgres ]; then
    "$bin/pg_ctl" -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=/tmp" -w start >/dev/null
    "$bin/psql" -h /tmp -U "$POSTGRES_USER" -d postgres -v ON_ERROR_STOP=1 -q \
      -c "create database \"$POSTGRES_DB\""
    "$bin/pg_ctl" -D "$PGDATA" -w stop >/dev/null
  fi
fi
exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/tmp
SH
chmod 755 "$root/usr/local/bin/docker-entrypoint.sh"
container=$(buildah from scratch)
buildah copy --quiet "$container" "$root" / >/dev/null
buildah config --user root --env PGDATA=/var/lib/postgresql/data \
  --env PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/bin:/bin --port 5432 \
  --volume /var/lib/postgresql/data --entrypoint '["/usr/local/bin/docker-entrypoint.sh"]' \
  --cmd '' "$container"
buildah commit --quiet --format docker "$container" "$tag" >/dev/null
buildah rm "$container" >/dev/null
echo "postgres-image: built $tag ($(podman image inspect "$tag" --format '{{.Size}}') bytes)"
