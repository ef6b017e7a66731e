#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (Playwright's
# own browser download is not used). Install it where it is missing.
set -euo pipefail
if command -v chromium >/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Chromium with apt-get…" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "Chromium is missing: install it (Debian: sudo apt-get install chromium) to run the browser tests." >&2
exit 1
