# tests/module.mk - test stages beyond the Makefile's own (included last,
# so $(PROGRAMS) is complete here).

# `make limits`: tests/run-limits.sh, part of `make test`.
.PHONY: limits
limits: $(PROGRAMS) $(TEST_DEPS)
	@sh tests/run-limits.sh $(BUILD) $(BIN)
TEST_STAGES += limits
