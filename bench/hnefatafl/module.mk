# bench/hnefatafl/module.mk - the libhnefatafl opponent of Fetlar (docs/games/fetlar.md,
# "libhnefatafl"), built only on request, never by `make` or `make test`:
#
#   make hnef HNEF_DIR=/path/to/hnefatafl/libhnefatafl
#
# compiles the library's src/*.c into $(BUILD)/hnef/lib/ with its own flags (the
# ones of its `make shared`, without -Werror), and links against it
# $(BUILD)/hnef/medan-hnefatafl (the MEP adapter) and $(BUILD)/hnef/hnef-perft.
# Nothing of the library is in this repository.
HNEF_OUT    := $(BUILD)/hnef
HNEF_CFLAGS := -mbmi -mbmi2 -mlzcnt -mavx -mavx2 -O3 -DNDEBUG -w
HNEF_SRC    := $(if $(HNEF_DIR),$(wildcard $(HNEF_DIR)/src/*.c))
HNEF_OBJ    := $(patsubst $(HNEF_DIR)/src/%.c,$(HNEF_OUT)/lib/%.o,$(HNEF_SRC))
HNEF_LIB    := $(HNEF_OUT)/libhnefatafl.a
# Our files see the library's headers as system headers (their warnings are
# theirs) and are built in GNU C (the headers use its extensions).
HNEF_OURS   := $(CPPFLAGS) $(filter-out $(CSTD),$(CFLAGS)) -std=gnu11 $(HNEF_CFLAGS:-w=) \
               -isystem $(HNEF_DIR)/src

.PHONY: hnef
ifeq ($(HNEF_DIR),)
hnef:
	@echo "make hnef: give HNEF_DIR=/path/to/hnefatafl/libhnefatafl (docs/games/fetlar.md)" >&2; exit 2
else
hnef: $(HNEF_OUT)/medan-hnefatafl $(HNEF_OUT)/hnef-perft $(BIN)/medan-fetlar $(BIN)/medan-referee

$(HNEF_OUT)/lib/%.o: $(HNEF_DIR)/src/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(HNEF_CFLAGS) -I$(HNEF_DIR)/src -c $< -o $@

# Its transposition table functions share names with Medan's (tt_clear,
# tt_probe, tt_store): every tt_* it defines is renamed hnef_tt_* in the
# archive; engine.c names them so.
$(HNEF_LIB): $(HNEF_OBJ)
	@rm -f $@
	@$(if $(Q),echo "  AR      $@")
	$(Q)$(AR) rcs $@ $^
	$(Q)nm -g --defined-only $@ | awk 'NF == 3 && $$3 ~ /^tt_/ { print $$3, "hnef_" $$3 }' | sort -u > $@.syms
	$(Q)objcopy --redefine-syms=$@.syms $@

$(HNEF_OUT)/%.o: bench/hnefatafl/%.c $(FLAGS_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(HNEF_OURS) -c $< -o $@

$(HNEF_OUT)/medan-hnefatafl: $(HNEF_OUT)/engine.o $(call game_lib,fetlar) $(LIBMEDAN) $(HNEF_LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS) -lreadline

$(HNEF_OUT)/hnef-perft: $(HNEF_OUT)/perft.o $(HNEF_LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)
endif
