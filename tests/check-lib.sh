# check-lib.sh - numbered ok/FAIL lines for the end-to-end test scripts
# (sourced by run-referee.sh and run-otbridge.sh; $fail ends up 1 on any
# failure).
fail=0
n=0
ok()  { n=$((n + 1)); echo "ok   $n $1"; }
bad() { n=$((n + 1)); echo "FAIL $n $1" >&2; fail=1; }
check() { if [ "$1" = "$2" ]; then ok "$3"; else bad "$3 (got '$1', want '$2')"; fi; }
count() { grep -c "$1" "$2" 2>/dev/null || true; }
