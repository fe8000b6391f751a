# medan-opentafl: the OpenTafl Engine Protocol adapter in front of medan-fetlar.
# medan-otbridge: the reverse, an OpenTafl engine behind MEP (bridge.c).
# Both run their child through the controller library (control/).
OPENTAFL_SRC := $(filter-out gui-adapters/opentafl/bridge.c gui-adapters/opentafl/otbudget.c,$(wildcard gui-adapters/opentafl/*.c))
OPENTAFL_OBJ := $(OPENTAFL_SRC:%.c=$(BUILD)/%.o)
OTBRIDGE_OBJ := $(addprefix $(BUILD)/gui-adapters/opentafl/,bridge.o otbudget.o otrules.o)

$(BIN)/medan-opentafl: $(OPENTAFL_OBJ) $(CTL_LIB) $(LIBMEDAN) | $(BIN)/medan-fetlar
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(OPENTAFL_OBJ) $(CTL_LIB) $(LIBMEDAN) -o $@ $(LDLIBS)

# Links Fetlar's rules (and, for the library's game table, every game).
$(BIN)/medan-otbridge: $(OTBRIDGE_OBJ) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) | $(BIN)/medan-opentafl
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(OTBRIDGE_OBJ) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) -o $@ $(LDLIBS) -lreadline

PROGRAMS += $(BIN)/medan-opentafl $(BIN)/medan-otbridge

# Its unit test also links the bridge's pieces (not bridge.c's main).
$(BUILD)/tests/test_otbridge: tests/unit/test_otbridge.c $(BUILD)/gui-adapters/opentafl/otbudget.o $(BUILD)/gui-adapters/opentafl/otrules.o $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(filter-out %.h,$^) -o $@ $(LDLIBS) -lcmocka

# `make test` also runs tests/run-otbridge.sh (the referee's check through
# the bridge, a short match, failing children).
.PHONY: otbridge-test
otbridge-test: $(BIN)/medan-otbridge $(BIN)/medan-opentafl $(BIN)/medan-fetlar $(BIN)/medan-referee
	@sh tests/run-otbridge.sh $(BUILD) $(BIN)
TEST_STAGES += otbridge-test
