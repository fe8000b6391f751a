# engines/battalion/module.mk - medan-battalion-duplicate, the strength benchmark
# over duplicate deals (run by hand; built and installed with the programs, never run by make test).
$(BIN)/medan-battalion-duplicate: $(BUILD)/engines/battalion/tools/duplicate.o $(call game_lib,battalion) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(filter %.o %.a,$^) -o $@ $(LDLIBS)
PROGRAMS  += $(BIN)/medan-battalion-duplicate
