#!/bin/sh
# Install what seqlint needs to build and test, on Debian 12, as root.
# Only packages that are missing are installed; nothing else is downloaded.
#   scripts/deps.sh            build + test dependencies (libjs-highlight.js: the
#                              HTML report's syntax highlighting; chromium: the
#                              headless browser test/tools/html-chromium*.test;
#                              lintian: test/tools/deb-lintian.test)
#   scripts/deps.sh --run      only what building and running seqlint needs
#                              (the quick start): LLVM 19, jansson, CMake, Ninja
#   scripts/deps.sh --bench    also the benchmark peers (Concurrency Kit, DPDK)
set -eu

if [ "${1:-}" = "--run" ]; then
	RUN_ONLY=1
else
	RUN_ONLY=0
fi

PKGS="clang-19 llvm-19-dev libclang-19-dev llvm-19-tools clang-tidy-19 libclang-rt-19-dev
clang-22 llvm-22-dev libclang-22-dev llvm-22-tools clang-tidy-22 libclang-rt-22-dev
cmake ninja-build python3 gcc binutils pkg-config libjansson-dev dpkg-dev linux-libc-dev
qemu-user gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu gcc-powerpc64le-linux-gnu
gcc-arm-linux-gnueabihf libc6-dev-arm64-cross libc6-dev-riscv64-cross libck-dev libdpdk-dev
libc6-dev-ppc64el-cross libc6-dev-armhf-cross
libjs-highlight.js chromium lintian"
if [ "${1:-}" = "--bench" ]; then
	PKGS="$PKGS libck-dev libdpdk-dev"
fi

# npm, for the SARIF Multitool check (test/tools/sarif-help.test), unless a
# Node.js installation already provides it.
if ! command -v npm >/dev/null 2>&1; then
	PKGS="$PKGS npm"
fi
if [ "$RUN_ONLY" = 1 ]; then
	PKGS="clang-19 llvm-19-dev libclang-19-dev libjansson-dev cmake ninja-build pkg-config"
fi

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
if [ -z "$missing" ]; then
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "seqlint: missing Debian packages:$missing" >&2
	echo "seqlint: run as root (or: sudo apt-get install$missing)" >&2
	exit 1
fi
echo "seqlint: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
