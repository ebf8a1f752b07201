#!/usr/bin/env bash
# Checks the built site (site/) in Debian's Chromium: every page of the
# navigation loads cleanly and offline, the chapters' quoted code is shown
# highlighted, the API reference loads, search works. Build the site first:
#   scripts/build_docs.sh && scripts/test_site.sh
# Everything it uses comes from Debian's packages (chromium, chromium-driver,
# python3-selenium): no browser or driver is ever downloaded.
set -euo pipefail

cd "$(dirname "$0")/.."

for tool in /usr/bin/python3 "${CHROMIUM:-/usr/bin/chromium}" "${CHROMEDRIVER:-/usr/bin/chromedriver}"; do
  [[ -x "$tool" ]] || { echo "test_site: $tool is missing; run scripts/setup.sh" >&2; exit 1; }
done
/usr/bin/python3 -c 'import selenium' 2>/dev/null ||
  { echo "test_site: python3-selenium is missing; run scripts/setup.sh" >&2; exit 1; }

# Debian's python3 (not whatever python3 is first on PATH): selenium lives there.
exec /usr/bin/python3 tests/site/site_test.py
