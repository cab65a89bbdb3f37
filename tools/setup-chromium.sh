#!/bin/sh
# Headless Chromium and its driver for the wiki's browser tests (Debian's packages).
# Installs them when missing and we may (root, apt-get); otherwise says what to do.
set -e
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium and chromium-driver for the browser tests"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  exit 0
fi
echo "chromium and chromedriver are missing: install them (Debian: apt-get install chromium chromium-driver)" >&2
echo "the browser tests will be skipped" >&2
