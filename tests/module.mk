# tests/module.mk - test stages beyond the Makefile's own (included last,
# so $(PROGRAMS) is complete here).

# `make limits`: tests/run-limits.sh, part of `make test`.
.PHONY: limits
limits: $(PROGRAMS) $(TEST_DEPS)
	@sh tests/run-limits.sh $(BUILD) $(BIN)
TEST_STAGES += limits

# `make readme`: every command README.md and docs/ offer to type, run in a
# clean clone of this checkout (tests/run-readme.sh).  Part of `make test`
# once (tests/run-stages.sh), not once per pass: no TEST_STAGES entry.
.PHONY: readme
readme:
	@MAKE="$(MAKE)" sh tests/run-readme.sh

# `make slurm-real`, `make ssh-real`: medan-slurm-match on a real one-node
# Slurm and `medan-referee parallel --sshlogin` over a real sshd, each equal
# to a single run move for move (tests/cluster/).  Where they cannot run
# (not root, packages missing) they print `skipped: why` and make goes on;
# `make test` runs them once, after the plain pass (tests/run-stages.sh),
# and shows them as skipped: no TEST_STAGES entry.
.PHONY: slurm-real ssh-real
slurm-real: $(BIN)/medan-referee $(BIN)/medan-loa $(BIN)/medan-slurm-match
	@sh tests/cluster/run-slurm-real.sh $(BUILD) $(BIN) || [ $$? = 77 ]
ssh-real: $(BIN)/medan-referee $(BIN)/medan-loa
	@sh tests/cluster/run-ssh-real.sh $(BUILD) $(BIN) || [ $$? = 77 ]
