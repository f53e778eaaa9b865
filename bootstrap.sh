#!/bin/sh
# Regenerate the build system (configure, Makefile.in) from a git clone.
set -e
cd "$(dirname "$0")"
autoreconf --install --force --warnings=all
