#!/usr/bin/env bash
# Install headless Chromium from the distribution's packages when it is
# missing, for the tests that use a real browser: the HTML reports rendered
# (tests/it/browser.rs) and the workbench page of `domsim serve` driven over
# the DevTools protocol (tests/it/serve_browser.rs; no driver binary needed).
# Never fails its caller: without a browser those tests say they are
# skipped, and everything else runs.
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
