#!/usr/bin/env bash
# Make sure the Redis server the Celery integration test uses is reachable:
# start a local redis-server that is installed but stopped (no persistence:
# it only carries test tasks), install one with apt-get where none is (as
# root), or say exactly what to do.
set -euo pipefail
url="${REDIS_URL:-redis://127.0.0.1:6379/0}"
host=$(python3 -c 'import sys,urllib.parse as u; p=u.urlparse(sys.argv[1]); print(p.hostname or "127.0.0.1", p.port or 6379)' "$url")
read -r rhost rport <<<"$host"

ready() {
  if command -v redis-cli >/dev/null; then
    [ "$(redis-cli -h "$rhost" -p "$rport" ping 2>/dev/null)" = "PONG" ]
  else
    python3 -c 'import socket,sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), 1)' \
      "$rhost" "$rport" 2>/dev/null
  fi
}

if ready; then exit 0; fi
if [ "$rhost" != "127.0.0.1" ] && [ "$rhost" != "localhost" ]; then
  echo "Redis at $rhost:$rport is not answering; start it or set REDIS_URL." >&2
  exit 1
fi
if ! command -v redis-server >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Redis with apt-get…" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  else
    echo "Redis is not installed. Install it (Debian: sudo apt-get install redis-server)" >&2
    echo "and start it on $rhost:$rport, or set REDIS_URL to a server you have." >&2
    exit 1
  fi
fi
redis-server --daemonize yes --bind 127.0.0.1 --port "$rport" --save "" --appendonly no >/dev/null
for _ in $(seq 1 30); do ready && exit 0; sleep 1; done
echo "Redis did not start on $rhost:$rport." >&2
exit 1
