# engines/battalion/module.mk - battalion-duplicate, the strength benchmark
# over duplicate deals (run by hand or from bench; not part of make test).
$(BIN)/battalion-duplicate: engines/battalion/tools/duplicate.c $(call game_lib,battalion) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(call game_lib,battalion) $(LIBMEDAN) -o $@ $(LDLIBS)
TEST_DEPS += $(BIN)/battalion-duplicate
