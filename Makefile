# Medan - build, test, bench.  See README.md and docs/architecture.md.
#
#   make              build bin/medan-*
#   make test         every test stage: the architecture map, the plain
#                     build's tests, the same under ASan/UBSan, the clang
#                     build, ThreadSanitizer (`make tsan`: tests/run-tsan.sh,
#                     build-tsan/), and `readme` (every command README.md and docs/
#                     offer to type, run in a clean clone; tests/run-readme.sh,
#                     also `make readme`); each stage runs even when another
#                     failed, and the run ends with one line per stage and
#                     `N passed, N failed` (N counts stages; tests/run-stages.sh)
#   make test SAN=1   only the sanitizer stages
#   make bench        perft and search benchmarks (slow, not part of test);
#                     BENCH=quick: the same script at small depths, one run
#   make match        a short engine-vs-engine match (the README main job)
#   make install PREFIX=/usr/local [DESTDIR=...]   programs, man pages, docs
#   make deps         check the build's Debian packages again (tests/deps.sh)
#   make              is one portable -O2 binary per program that runs the
#                     fast copies of LOA's and Fetlar's hot routines (POPCNT,
#                     BMI1, BMI2) where the processor has them (cpuid, at
#                     start; MEDAN_CPU=portable keeps the portable copies);
#                     make install and CI install that build
#   make NATIVE=1     tune everything for this machine's processor
#                     (-march=native; binaries for this machine only, so
#                     make install NATIVE=1 is refused)
#   make V=1          show the commands (the default prints one line a file)
#
# Every build first runs tests/deps.sh once (stamp build/.deps-ok): as root
# it installs the missing Debian packages, otherwise it names them.
#
# Components are discovered: every engines/<game>/ folder with a main.c
# becomes bin/medan-<game>; tests/unit/test_*.c become cmocka tests.
# A folder may add rules in its own module.mk.

CC      ?= cc
SAN     ?= 0
NATIVE  ?= 0
PREFIX  ?= /usr/local
CSTD    := -std=c11
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
CPPFLAGS += -D_GNU_SOURCE -I.
OPT     ?= -O2
CFLAGS  += $(CSTD) $(OPT) -g $(WARN) -pthread -MMD -MP
LDLIBS  += -pthread -lm

ifeq ($(SAN),1)
BUILD   := build-san
BIN     := build-san/bin
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -O1
LDFLAGS += -fsanitize=address,undefined
else
BUILD   := build
BIN     := bin
endif
# Binaries for this machine only (measured: README.md, the build); never
# installed: the default build already takes the fast paths where it runs.
ifeq ($(NATIVE),1)
CFLAGS  += -march=native
ifneq ($(filter install,$(MAKECMDGOALS)),)
$(error make install NATIVE=1: native binaries run only on processors like this one; install the default build (portable, with the fast paths picked at run time))
endif
endif

V ?= 0
ifeq ($(V),0)
Q := @
else
Q :=
endif

# The objects depend on a stamp of the compile command, so a change of flags
# (NATIVE=1, OPT=..., another CC into the same BUILD) rebuilds them.
FLAGS_STAMP := $(BUILD)/.flags
FLAGS_NOW   := $(CC) $(CPPFLAGS) $(CFLAGS)
$(shell mkdir -p $(BUILD) && [ "$$(cat $(FLAGS_STAMP) 2>/dev/null)" = '$(FLAGS_NOW)' ] || printf '%s\n' '$(FLAGS_NOW)' > $(FLAGS_STAMP))

GAMES      := $(patsubst engines/%/main.c,%,$(wildcard engines/*/main.c))
LIB_SRC    := $(wildcard core/*.c search/*.c protocol/*.c engines/common/*.c)
LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIBMEDAN   := $(BUILD)/libmedan.a
REG_OBJ    := $(BUILD)/engines/registry.o

# Toy games live in tests/games/<game>/ (Nim): registered and linked like
# the others, their program built for the tests only ($(BUILD)/games/).
TOY_GAMES  := $(patsubst tests/games/%/main.c,%,$(wildcard tests/games/*/main.c))
game_dir    = $(if $(filter $(1),$(TOY_GAMES)),tests/games/$(1),engines/$(1))
game_src    = $(filter-out $(call game_dir,$(1))/main.c,$(wildcard $(call game_dir,$(1))/*.c))
game_lib    = $(BUILD)/libgame_$(1).a
game_prog   = $(if $(filter $(1),$(TOY_GAMES)),$(BUILD)/games/medan-$(1),$(BIN)/medan-$(1))
GAME_LIBS  := $(foreach g,$(GAMES) $(TOY_GAMES),$(call game_lib,$(g)))
ENGINES    := $(foreach g,$(GAMES),$(BIN)/medan-$(g))
TOY_PROGS  := $(foreach g,$(TOY_GAMES),$(call game_prog,$(g)))

UNIT_SRC   := $(wildcard tests/unit/test_*.c)
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TOOL_SRC   := $(wildcard tests/tools/*.c)
TOOL_BIN   := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tools/%)

PROGRAMS   := $(ENGINES)
TEST_DEPS  := $(TOOL_BIN) $(TOY_PROGS)
# The test targets of one pass (`make test-suite`); a module.mk may append.
TEST_STAGES := unit transcripts docs robust referee cli

# Component rules come before any rule that lists $(PROGRAMS) or
# $(TEST_DEPS), so what a module.mk appends is seen there.
.DEFAULT_GOAL := all
-include $(wildcard control/module.mk engines/*/module.mk gui-adapters/*/module.mk referee/module.mk tuning/module.mk tests/module.mk bench/*/module.mk)

.PHONY: all build-all clang-build test test-suite unit transcripts docs robust referee cli bench match install uninstall clean deps
all: $(PROGRAMS)

# The set-up step shared by every target that compiles: tests/deps.sh once
# per checkout (the stamp); `make deps` runs it again.
DEPS_STAMP := build/.deps-ok
$(DEPS_STAMP): tests/deps.sh
	@sh tests/deps.sh
	@mkdir -p $(dir $@) && touch $@

$(BUILD)/%.o: %.c $(FLAGS_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIBMEDAN): $(LIB_OBJ)
	@rm -f $@
	@$(if $(Q),echo "  AR      $@")
	$(Q)$(AR) rcs $@ $^

define GAME_RULES
$(call game_lib,$(1)): $(patsubst %.c,$(BUILD)/%.o,$(call game_src,$(1)))
	@rm -f $$@
	@$$(if $$(Q),echo "  AR      $$@")
	$$(Q)$$(AR) rcs $$@ $$^
$(call game_prog,$(1)): $(BUILD)/$(call game_dir,$(1))/main.o $(call game_lib,$(1)) $(LIBMEDAN)
	@mkdir -p $$(dir $$@)
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CC) $$(CFLAGS) $$(LDFLAGS) $$^ -o $$@ $$(LDLIBS) -lreadline
endef
$(foreach g,$(GAMES) $(TOY_GAMES),$(eval $(call GAME_RULES,$(g))))

# Unit tests link every game, the registry and the library.
$(BUILD)/tests/%: tests/unit/%.c $(FLAGS_STAMP) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) -o $@ $(LDLIBS) -lcmocka

$(BUILD)/tools/%: tests/tools/%.c $(FLAGS_STAMP) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) -o $@ $(LDLIBS)


# ---- tests ---------------------------------------------------------------
deps:
	@sh tests/deps.sh
	@mkdir -p $(dir $(DEPS_STAMP)) && touch $(DEPS_STAMP)

# The stages are listed in tests/run-stages.sh's order; SAN=1 keeps only
# the sanitizer ones.  TEST_STAGES (above) are the test targets of one pass.
test: deps
	@MAKE='$(MAKE)' sh tests/run-stages.sh $(if $(filter 1,$(SAN)),san,all) $(TEST_STAGES)

# Everything must also build warning-free with clang.
clang-build:
	@if command -v clang >/dev/null 2>&1; then \
	  $(MAKE) CC=clang SAN=0 BUILD=build-clang BIN=build-clang/bin build-all && \
	  echo "clang build: clean"; else echo "clang build: skipped (no clang)"; fi

build-all: all $(UNIT_BIN) $(TEST_DEPS)

test-suite: $(TEST_STAGES)
	@echo "test-suite ($(BUILD)): all passed"

unit: $(UNIT_BIN)
	@sh tests/run-unit.sh $(UNIT_BIN)

transcripts: $(PROGRAMS) $(TEST_DEPS)
	@sh tests/run-transcripts.sh $(BUILD) $(BIN)

# Every MEP session in README.md and docs/ replayed against the binaries
# (the convention is in tests/run-docs.sh and docs/protocol.md).
docs: $(PROGRAMS) $(TEST_DEPS)
	@sh tests/run-docs.sh $(BUILD) $(BIN)

robust: $(PROGRAMS) $(TEST_DEPS)
	@sh tests/run-robust.sh $(BUILD) $(BIN)

referee: $(PROGRAMS) $(TEST_DEPS)
	@sh tests/run-referee.sh $(BUILD) $(BIN)

# --help/--version, bench fingerprints, make install, the interactive console.
cli: $(PROGRAMS) $(TEST_DEPS)
	@MAKE="$(MAKE)" SAN=$(SAN) sh tests/run-cli.sh $(BUILD) $(BIN)

# ---- benchmarks, match, install -------------------------------------------
# BENCH=quick: small depths, one run each (seconds; the readme stage runs it).
BENCH ?= full
# BENCH=strength: the strength figures instead (tests/bench-strength.sh:
# matches with 95% intervals; an hour or more on a quiet machine).
bench: all
	@if [ "$(BENCH)" = strength ]; then sh tests/bench-strength.sh $(BIN); \
	else sh tests/bench.sh $(BIN) $(BENCH); fi

# The README's main job: a short engine-vs-engine match on a default setup
# (the LOA engine against its greedy baseline through the referee; the
# recipe is referee-match in referee/module.mk).
match: all referee-match

# Programs to bin, manual pages (docs/man, version from core/version.h) to
# share/man/man1, the docs to share/doc/medan.  DESTDIR for packaging.
VERSION := $(shell sed -n 's/^.define MEDAN_VERSION "\(.*\)"/\1/p' core/version.h)
MANDIR  ?= $(PREFIX)/share/man/man1
DOCDIR  ?= $(PREFIX)/share/doc/medan
MANDATE := $(or $(shell git log -1 --format=%cd --date=short -- docs/man 2>/dev/null),$(shell date +%Y-%m-%d))
install: all
	@$(if $(Q),echo "  INSTALL $(DESTDIR)$(PREFIX)")
	$(Q)install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR) $(DESTDIR)$(DOCDIR)/games $(DESTDIR)$(DOCDIR)/gui-adapters
	$(Q)install -m 755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	$(Q)for f in docs/man/*.1; do \
	  sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@DATE@|$(MANDATE)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' \
	    $$f > $(DESTDIR)$(MANDIR)/$${f##*/} && chmod 644 $(DESTDIR)$(MANDIR)/$${f##*/} || exit 1; done
	$(Q)install -m 644 README.md docs/protocol.md docs/referee.md docs/architecture.md docs/building.md docs/solver.md docs/tuning.md $(DESTDIR)$(DOCDIR)/
	$(Q)install -m 644 docs/games/*.md $(DESTDIR)$(DOCDIR)/games/
	$(Q)install -m 644 docs/gui-adapters/*.md $(DESTDIR)$(DOCDIR)/gui-adapters/

uninstall:
	@$(if $(Q),echo "  UNINSTALL $(DESTDIR)$(PREFIX)")
	$(Q)rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(notdir $(PROGRAMS)))
	$(Q)rm -f $(addprefix $(DESTDIR)$(MANDIR)/,$(notdir $(wildcard docs/man/*.1)))
	$(Q)rm -rf $(DESTDIR)$(DOCDIR)

clean:
	@$(if $(Q),echo "  CLEAN   build build-san build-clang build-tsan bin")
	$(Q)rm -rf build build-san build-clang build-tsan bin

-include $(shell find $(sort $(BUILD) build build-san) -name '*.d' 2>/dev/null)
