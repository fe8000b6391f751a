#!/bin/sh
# Run every cmocka test binary given; fail if any fails.
fail=0
for t in "$@"; do
    if ! "$t"; then echo "FAILED: $t" >&2; fail=1; fi
done
exit $fail
