#!/usr/bin/env bash
# Make sure the PostgreSQL server the tests use is reachable: start a local
# cluster that is installed but stopped, install one with apt-get where none
# is (as root), or say exactly what to do.
set -euo pipefail
url="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/pitboss}"
host=$(python3 -c 'import sys,urllib.parse as u; p=u.urlparse(sys.argv[1]); print(p.hostname or "127.0.0.1", p.port or 5432)' "$url")
read -r pghost pgport <<<"$host"

ready() { command -v pg_isready >/dev/null && pg_isready -q -h "$pghost" -p "$pgport"; }

if ready; then exit 0; fi
if [ "$pghost" != "127.0.0.1" ] && [ "$pghost" != "localhost" ]; then
  echo "PostgreSQL at $pghost:$pgport is not answering; start it or set DATABASE_URL." >&2
  exit 1
fi
if ! command -v pg_ctlcluster >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing PostgreSQL with apt-get…" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  else
    echo "PostgreSQL is not installed. Install it (Debian: sudo apt-get install postgresql)," >&2
    echo "allow trust auth for 127.0.0.1, or set DATABASE_URL to a server you have." >&2
    exit 1
  fi
fi
for version in $(ls /etc/postgresql 2>/dev/null); do
  pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null || true
done
for _ in $(seq 1 30); do ready && exit 0; sleep 1; done
echo "PostgreSQL did not start on $pghost:$pgport; see /var/log/postgresql." >&2
exit 1
