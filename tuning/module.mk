# tuning/module.mk - medan-texel, the evaluation fitted to game results
# (docs/tuning.md): $(BUILD)/tools/medan-texel, built by `make texel` and
# with the test tools; not installed (a development tool, like SPSA's
# params files beside it).
TEXEL_OBJ := $(BUILD)/tuning/texel.o
TEXEL     := $(BUILD)/tools/medan-texel

$(TEXEL): $(BUILD)/tuning/medan-texel.o $(TEXEL_OBJ) $(REF_LIB) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS) -ljansson

# The fitter's unit test also needs the referee's record reader.
$(BUILD)/tests/test_texel: tests/unit/test_texel.c $(FLAGS_STAMP) $(TEXEL_OBJ) $(REF_LIB) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(TEXEL_OBJ) $(REF_LIB) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) -o $@ $(LDLIBS) -lcmocka -ljansson

.PHONY: texel
texel: $(TEXEL)
TEST_DEPS += $(TEXEL)
