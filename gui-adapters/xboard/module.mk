# medan-xboard: a CECP (WinBoard protocol 2) engine for XBoard that plays
# through medan-loa or medan-fetlar, run as a child by the controller
# library (control/).
XBOARD_OBJ := $(addprefix $(BUILD)/gui-adapters/xboard/,main.o xbgame.o)

$(BIN)/medan-xboard: $(XBOARD_OBJ) $(CTL_LIB) $(LIBMEDAN) | $(BIN)/medan-loa $(BIN)/medan-fetlar
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(XBOARD_OBJ) $(CTL_LIB) $(LIBMEDAN) -o $@ $(LDLIBS)

PROGRAMS += $(BIN)/medan-xboard

# `make xboard`: the CECP transcript test (no X), then XBoard itself under
# Xvfb playing a whole engine-vs-engine game of each variant with the
# adapter on both sides (tests/run-xboard.sh; skipped, exit 77, only where
# xboard and Xvfb cannot be installed).
.PHONY: xboard
xboard: $(BIN)/medan-xboard $(BIN)/medan-loa $(BIN)/medan-fetlar $(BIN)/medan-palagan
	@sh tests/run-xboard.sh $(BUILD) $(BIN)
TEST_STAGES += xboard
