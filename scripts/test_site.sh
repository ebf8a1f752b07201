#!/usr/bin/env bash
# Checks the built site (site/) in Debian's Chromium: every page of the
# navigation loads cleanly and offline, the chapter's quoted code is shown
# highlighted, the API reference loads. Build the site first:
#   scripts/build_docs.sh && scripts/test_site.sh
# Installs the test's one npm package (playwright-core, pinned in
# tests/site/package-lock.json) on first use; it never downloads a browser.
set -euo pipefail

cd "$(dirname "$0")/../tests/site"

for tool in node npm "${CHROMIUM:-/usr/bin/chromium}"; do
  command -v "$tool" >/dev/null || { echo "test_site: $tool is missing; run scripts/setup.sh" >&2; exit 1; }
done

wanted=$(node -p 'require("./package.json").dependencies["playwright-core"]')
installed=$(node -p 'try { require("./node_modules/playwright-core/package.json").version } catch { "" }')
if [[ "$installed" != "$wanted" ]]; then
  echo "test_site: installing playwright-core $wanted (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

exec node site_test.mjs
