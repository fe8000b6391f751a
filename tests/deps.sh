#!/bin/sh
# Install what the build and the tests need, on Debian/Ubuntu, when missing.
# As root it runs apt-get; otherwise it says what to install and fails.
need=""
have_hdr() { printf '#include <%s>\nint main(void){return 0;}\n' "$1" |
    ${CC:-cc} -x c - -o /dev/null $2 >/dev/null 2>&1; }
command -v ${CC:-cc} >/dev/null 2>&1 || need="$need build-essential"
command -v clang >/dev/null 2>&1 || need="$need clang"
command -v make >/dev/null 2>&1 || need="$need make"
have_hdr stdio.h || need="$need build-essential"
printf '#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <stdint.h>\n#include <cmocka.h>\nint main(void){return 0;}\n' |
    ${CC:-cc} -x c - -o /dev/null -lcmocka >/dev/null 2>&1 || need="$need libcmocka-dev"
printf '#include <stdio.h>\n#include <readline/readline.h>\nint main(void){return 0;}\n' |
    ${CC:-cc} -x c - -o /dev/null -lreadline >/dev/null 2>&1 || need="$need libreadline-dev"
have_hdr jansson.h -ljansson || need="$need libjansson-dev"
command -v parallel >/dev/null 2>&1 || need="$need parallel"
# medan-web: libmicrohttpd; its browser tests drive Chromium through Selenium.
have_hdr microhttpd.h -lmicrohttpd || need="$need libmicrohttpd-dev"
[ -x /usr/bin/chromedriver ] || command -v chromedriver >/dev/null 2>&1 || need="$need chromium-driver"
/usr/bin/python3 -c 'import selenium' >/dev/null 2>&1 || need="$need python3-selenium"
# The report test renders a page in headless Chromium and reads the PNG.
command -v chromium >/dev/null 2>&1 || need="$need chromium"
command -v python3 >/dev/null 2>&1 || need="$need python3"
# The medan Python package's install test: a venv (ensurepip) built offline
# with Debian's setuptools and wheel (tests/run-python.sh).
/usr/bin/python3 -c 'import ensurepip' >/dev/null 2>&1 || need="$need python3-venv"
/usr/bin/python3 -c 'import setuptools, wheel' >/dev/null 2>&1 || need="$need python3-setuptools python3-wheel"
# The console test drives the engines through tmux; man pages are checked with groff.
command -v tmux >/dev/null 2>&1 || need="$need tmux"
# The xboard stage: XBoard under Xvfb, screenshots by xwd and convert.
{ command -v xboard || [ -x /usr/games/xboard ]; } >/dev/null 2>&1 || need="$need xboard"
command -v Xvfb >/dev/null 2>&1 || need="$need xvfb x11-apps imagemagick"
command -v groff >/dev/null 2>&1 || need="$need groff-base"
# The ThreadSanitizer stage (tests/run-tsan.sh) links clang's runtime.
if command -v clang >/dev/null 2>&1; then
    printf 'int main(void){return 0;}\n' | clang -x c - -o /dev/null -fsanitize=thread \
        >/dev/null 2>&1 || need="$need libclang-rt-dev"
fi
# The sanitizer runtimes come with gcc; check that -fsanitize links.
printf 'int main(void){return 0;}\n' | ${CC:-cc} -x c - -o /dev/null \
    -fsanitize=address,undefined >/dev/null 2>&1 || need="$need libasan8 libubsan1"
# Optional: the real one-node Slurm and sshd of the slurm-real and ssh-real
# stages (tests/cluster/).  Installed as root where apt-get can; elsewhere
# (or when the install fails) those two stages say `skipped: why`.
opt=""
have_sbin() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }
for p in slurmctld slurmd sbatch; do have_sbin $p || opt="$opt slurm-wlm"; done
have_sbin munged || opt="$opt munge"
have_sbin sshd || opt="$opt openssh-server"
command -v ssh >/dev/null 2>&1 || opt="$opt openssh-client"
command -v rsync >/dev/null 2>&1 || opt="$opt rsync"
opt=$(printf '%s\n' $opt | sort -u | tr '\n' ' ' | sed 's/^/ /; s/ *$//')
[ -z "$need" ] && [ -z "$opt" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || { [ -z "$need" ] || { echo "deps: apt-get update failed" >&2; exit 1; }; }
    if [ -n "$need" ]; then
        echo "deps: installing$need"
        apt-get install -y -qq -o DPkg::Lock::Timeout=300 $need >/dev/null || {
            echo "deps: apt-get install$need failed" >&2; exit 1; }
    fi
    if [ -n "$opt" ]; then
        echo "deps: installing$opt (for the slurm-real and ssh-real stages)"
        apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 \
            $opt >/dev/null ||
            echo "deps: apt-get install$opt failed; the slurm-real and ssh-real stages will be skipped" >&2
    fi
    exit 0
fi
[ -z "$need" ] && exit 0
echo "deps: missing packages:$need" >&2
echo "deps: install them first, e.g.: sudo apt-get install$need" >&2
exit 1
