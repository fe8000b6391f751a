# medan-opentafl: the OpenTafl Engine Protocol adapter in front of medan-fetlar.
OPENTAFL_SRC := $(wildcard gui-adapters/opentafl/*.c)
OPENTAFL_OBJ := $(OPENTAFL_SRC:%.c=$(BUILD)/%.o)

$(BIN)/medan-opentafl: $(OPENTAFL_OBJ) $(LIBMEDAN) | $(BIN)/medan-fetlar
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $(OPENTAFL_OBJ) $(LIBMEDAN) -o $@ $(LDLIBS)

PROGRAMS += $(BIN)/medan-opentafl
