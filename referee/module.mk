# referee/module.mk - medan-referee and the mock engines of its tests.
REF_SRC  := $(wildcard referee/*.c)
REF_OBJ  := $(REF_SRC:%.c=$(BUILD)/%.o)
REF_LIB  := $(BUILD)/libreferee.a
REF_LIBOBJ := $(filter-out $(BUILD)/referee/main.o,$(REF_OBJ))

$(REF_LIB): $(REF_LIBOBJ)
	@rm -f $@
	@$(if $(Q),echo "  AR      $@")
	$(Q)$(AR) rcs $@ $^

$(BIN)/medan-referee: $(BUILD)/referee/main.o $(REF_LIB) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS) -ljansson

# Mock engines for the referee tests (tests/mock/*.c -> $(BUILD)/mock/*).
MOCK_SRC := $(wildcard tests/mock/*.c)
MOCK_BIN := $(MOCK_SRC:tests/mock/%.c=$(BUILD)/mock/%)
$(BUILD)/mock/%: tests/mock/%.c $(FLAGS_STAMP) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) -o $@ $(LDLIBS)

# The referee's unit tests also need the referee library and jansson.
$(BUILD)/tests/test_referee_%: tests/unit/test_referee_%.c $(FLAGS_STAMP) $(REF_LIB) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(REF_LIB) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) -o $@ $(LDLIBS) -lcmocka -ljansson

PROGRAMS  += $(BIN)/medan-referee
TEST_DEPS += $(MOCK_BIN)

.PHONY: referee-test
referee-test: $(BIN)/medan-referee $(MOCK_BIN) $(filter $(BUILD)/tests/test_referee_%,$(UNIT_BIN))
	@sh tests/run-referee.sh $(BUILD) $(BIN)

# `make referee-match`: the README's main job through the referee - the LOA
# engine against its greedy baseline, a few fast games from the balanced
# opening suite, the table printed (outputs in match-out/); the recipe of
# `make match`.
MATCH_GAMES ?= 8
.PHONY: referee-match
referee-match: $(BIN)/medan-referee $(BIN)/medan-loa
	@rm -rf match-out && mkdir -p match-out
	@$(if $(Q),echo "  MATCH   medan-loa against Strategy=greedy: $(MATCH_GAMES) games (match-out/)")
	$(Q)$(BIN)/medan-referee --game loa \
	    --engine name=medan cmd=$(BIN)/medan-loa \
	    --engine name=greedy cmd=$(BIN)/medan-loa option.Strategy=greedy \
	    --each tc=2+0.05 --games $(MATCH_GAMES) --concurrency 2 --seed 1 \
	    --openings file=openings/loa.epd --results match-out/results.jsonl \
	    --records match-out/records.pgn --logdir match-out/logs

# `make install` also installs the balanced opening suites (openings/*.epd,
# docs/referee.md "Balanced opening suites") and the script that made them
# into PREFIX/share/medan/openings; `make uninstall` removes them.
.PHONY: openings-install openings-uninstall
install: openings-install
openings-install:
	$(Q)install -d $(DESTDIR)$(PREFIX)/share/medan/openings
	$(Q)install -m 644 $(wildcard openings/*.epd) $(DESTDIR)$(PREFIX)/share/medan/openings/
	$(Q)install -m 755 openings/make-suite.py $(DESTDIR)$(PREFIX)/share/medan/openings/
uninstall: openings-uninstall
openings-uninstall:
	$(Q)rm -rf $(DESTDIR)$(PREFIX)/share/medan/openings
	$(Q)rmdir $(DESTDIR)$(PREFIX)/share/medan 2>/dev/null || true

# The deal solver (tests/tools/deal_solver.c) also needs the referee's seed
# functions: an explicit rule wins over the tools' pattern rule.
$(BUILD)/tools/deal_solver: tests/tools/deal_solver.c $(FLAGS_STAMP) $(REF_LIB) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(REF_LIB) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) -o $@ $(LDLIBS) -ljansson
# medan-slurm-match: a match as a Slurm job array (a shell script).
$(BIN)/medan-slurm-match: referee/slurm-match.sh core/version.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sed 's|@VERSION@|$(VERSION)|' $< > $@ && chmod 755 $@
PROGRAMS += $(BIN)/medan-slurm-match

# `make test` also runs tests/run-cluster.sh: parallel and Slurm matches.
.PHONY: cluster-test
cluster-test: $(BIN)/medan-referee $(BIN)/medan-loa $(BIN)/medan-slurm-match
	@sh tests/run-cluster.sh $(BUILD) $(BIN)
TEST_STAGES += cluster-test

# `make test` also runs tests/run-batch.sh: the batched SPRT over parallel
# and Slurm (fake and, as root, a real one-node Slurm), faults, quoting.
.PHONY: batch-test
batch-test: $(BIN)/medan-referee $(BIN)/medan-loa $(BIN)/medan-battalion $(BIN)/medan-slurm-match
	@sh tests/run-batch.sh $(BUILD) $(BIN)
TEST_STAGES += batch-test

# `make test` also runs tests/run-report.sh: the HTML report, rendered by
# headless Chromium.
.PHONY: report-test
report-test: $(BIN)/medan-referee $(BIN)/medan-loa $(BIN)/medan-battalion
	@sh tests/run-report.sh $(BUILD) $(BIN)
TEST_STAGES += report-test

# `medan-referee tune`'s synthetic problem: a Nim engine on the MEP library
# (tests/mock/spsa-nim.c, readline through mep_main's console); an explicit
# rule wins over the mocks' pattern rule.  `make tune-test` (a stage of
# `make test`) runs tests/run-tune.sh.
$(BUILD)/mock/spsa-nim: tests/mock/spsa-nim.c $(FLAGS_STAMP) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) -o $@ $(LDLIBS) -lreadline
.PHONY: tune-test
tune-test: $(BIN)/medan-referee $(BUILD)/mock/spsa-nim $(BIN)/medan-loa $(BIN)/medan-fetlar $(BIN)/medan-battalion $(BIN)/medan-palagan
	@sh tests/run-tune.sh $(BUILD) $(BIN)
TEST_STAGES += tune-test
