#!/bin/sh
# Test double for the compiler the runner starts: appends its arguments to
# $SEQLINT_TEST_LOG (one command per line), then runs $SEQLINT_TEST_CLANG.
printf '%s\n' "$*" >> "$SEQLINT_TEST_LOG"
exec "$SEQLINT_TEST_CLANG" "$@"
