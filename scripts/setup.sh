#!/usr/bin/env bash
# Installs what flocklife needs from Debian's packages, only what is missing (idempotent).
# The CUDA toolkit is not a Debian package here: it is used from /usr/local/cuda when present,
# and without it flocklife builds its CPU backends only.
set -euo pipefail
packages=(
  cmake ninja-build g++ git pkg-config
  libgtest-dev libcli11-dev nlohmann-json3-dev   # tests, options, JSON output
  golly                                          # bgolly: the independent Life oracle in tests
  clang libclang-rt-14-dev                       # libFuzzer: scripts/fuzz.sh, ctest pattern_fuzz_30s
  libglfw3-dev libglm-dev libegl-dev python3-glad libstb-dev   # window: GLFW, glm, EGL, glad 2, PNG
  xvfb xauth libgl1-mesa-dri libglx-mesa0 libegl-mesa0 ffmpeg  # render tests under Xvfb/llvmpipe, --record
)
# Optional, for the report only (scripts/plots.py; not needed to build or test): setup.sh --report
for arg in "$@"; do
  case $arg in
    --report) packages+=(python3-matplotlib) ;;
    *) echo "setup: unknown argument '$arg'; expected --report (or nothing)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
