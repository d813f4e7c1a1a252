#!/usr/bin/env bash
# Check an HTML report in a real headless browser (Debian's chromium):
#   scripts/check_report.sh [REPORT.html] [SCREENSHOT.png]
# Defaults: results/sample_report.html, results/sample_report.png.
# Installs chromium with apt-get if it is missing. Checks that the page loads
# without console errors, that the rendered DOM holds the charts (svg
# elements, bars, error bars, line series, heat-map cells), and saves a
# screenshot (1280x2400) to look at.
set -euo pipefail

report=${1:-results/sample_report.html}
shot=${2:-results/sample_report.png}
[ -f "$report" ] || { echo "no report at $report" >&2; exit 2; }

if ! command -v chromium >/dev/null 2>&1; then
    apt-get update && apt-get install -y chromium
fi

url="file://$(realpath "$report")"
profile=$(mktemp -d)
log=$(mktemp)
dom=$(mktemp)
trap 'rm -rf "$profile" "$log" "$dom"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --user-data-dir="$profile" --window-size=1280,2400)

# 1. The DOM after loading, with the console logged to stderr.
chromium "${flags[@]}" --enable-logging=stderr --v=0 --dump-dom "$url" >"$dom" 2>"$log" || {
    echo "chromium failed to load $url" >&2; cat "$log" >&2; exit 1; }

fail=0
count() { { grep -o "$1" "$dom" || true; } | wc -l; }
need() { # need PATTERN MIN WHAT
    local n; n=$(count "$1")
    if [ "$n" -lt "$2" ]; then echo "FAIL: $3: $n (want >= $2)"; fail=1; else echo "ok: $3: $n"; fi
}
need '<svg' 10 "svg charts"
need 'class="bar"' 4 "bars"
need 'class="errorbar"' 2 "error bars"
need 'class="series"' 5 "line series"
need '</html>' 1 "complete document"
grep -q '<h2>Matchup matrix</h2>' "$dom" && need 'class="cell"' 1 "heat-map cells"
if grep -q '<script' "$dom"; then echo "FAIL: the report contains a script"; fail=1; fi
# Console errors (uncaught exceptions, failed loads) show as CONSOLE lines.
if grep -E 'CONSOLE|Uncaught|Failed to load|net::ERR' "$log"; then
    echo "FAIL: console errors above"; fail=1
else
    echo "ok: no console errors"
fi

# 2. A screenshot.
chromium "${flags[@]}" --screenshot="$(realpath -m "$shot")" --hide-scrollbars "$url" \
    >/dev/null 2>&1 || { echo "FAIL: screenshot"; fail=1; }
[ -s "$shot" ] && echo "ok: screenshot $shot ($(stat -c %s "$shot") bytes)"
exit $fail
