#!/usr/bin/env bash
# Install headless Chromium from the distribution's packages when it is
# missing, for the report test that renders the HTML charts in a real
# browser (tests/it/browser.rs). Never fails its caller: without a browser
# that test says it is skipped, and everything else runs.
set -u
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-browser: no apt-get here; install Chromium by hand to run the browser test" >&2
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo -n"
fi
if $sudo apt-get update -qq >/dev/null 2>&1 &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null 2>&1; then
    echo "setup-browser: installed $(chromium --version 2>/dev/null)"
else
    echo "setup-browser: could not install chromium; the browser test will be skipped" >&2
fi
exit 0
