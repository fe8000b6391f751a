# engines/battalion/module.mk - battalion-duplicate, the strength benchmark
# over duplicate deals (run by hand; built with the tests, never run by them).
$(BIN)/battalion-duplicate: $(BUILD)/engines/battalion/tools/duplicate.o $(call game_lib,battalion) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $(filter %.o %.a,$^) -o $@ $(LDLIBS)
TEST_DEPS += $(BIN)/battalion-duplicate
