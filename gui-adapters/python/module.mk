# gui-adapters/python: the `medan` Python client package (pure Python,
# standard library only; nothing to build).  `make install` puts the package
# where the system's python3 finds it (PYTHON_DIR, by default
# PREFIX/lib/pythonX.Y/dist-packages for the python3 that runs the tests:
# Debian's python3 reads /usr/local/lib/pythonX.Y/dist-packages, and
# /usr/lib/pythonX.Y/dist-packages with PREFIX=/usr) and docs/scripting.md
# beside the other docs; `make python` runs its stage of `make test`.
PY_PKG     := $(wildcard gui-adapters/python/medan/*.py)
PYTHON     ?= $(if $(wildcard /usr/bin/python3),/usr/bin/python3,python3)
PYTHON_VER  = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
PYTHON_DIR ?= $(PREFIX)/lib/python$(PYTHON_VER)/dist-packages

.PHONY: python python-install python-uninstall
install: python-install
python-install:
	$(Q)install -d $(DESTDIR)$(PYTHON_DIR)/medan $(DESTDIR)$(DOCDIR)
	$(Q)install -m 644 $(PY_PKG) $(DESTDIR)$(PYTHON_DIR)/medan/
	$(Q)install -m 644 docs/scripting.md $(DESTDIR)$(DOCDIR)/
uninstall: python-uninstall
python-uninstall:
	$(Q)rm -rf $(DESTDIR)$(PYTHON_DIR)/medan
	$(Q)rm -f $(DESTDIR)$(DOCDIR)/scripting.md

# `make python`: the client's unit tests (a mock engine), its tests against
# the four engines of $(BIN) (plain, or ASan/UBSan with SAN=1), every example
# of docs/scripting.md, pip install into a fresh venv, make install
# (tests/run-python.sh).
python: $(ENGINES)
	@MAKE="$(MAKE)" PYTHON="$(PYTHON)" sh tests/run-python.sh $(BUILD) $(BIN)
TEST_STAGES += python
