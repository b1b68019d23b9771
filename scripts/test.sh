#!/usr/bin/env bash
# Install what is missing, build, and run every test (GPU tests skip without a device).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
ctest --test-dir build --output-on-failure --timeout 600
