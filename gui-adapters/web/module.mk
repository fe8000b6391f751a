# medan-web: the browser board (gui-adapters/web/): an HTTP server on
# libmicrohttpd with jansson, the page in www/, engines driven by the shared
# MEP controller.
WEB_SRC := $(wildcard gui-adapters/web/*.c)
WEB_OBJ := $(WEB_SRC:%.c=$(BUILD)/%.o)

# Engines through control/'s libcontrol.a, the MEP controller every program
# that runs engines shares.
# Matches through the referee's library (referee/module.mk builds it; named
# here because this file is read first): one match loop.
WEB_REF_LIB := $(BUILD)/libreferee.a
$(BIN)/medan-web: $(WEB_OBJ) $(WEB_REF_LIB) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) | $(ENGINES)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(WEB_OBJ) $(WEB_REF_LIB) $(CTL_LIB) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) -o $@ $(LDLIBS) -lmicrohttpd -ljansson

PROGRAMS += $(BIN)/medan-web

# `make web`: start it on port 8080 (WEB_PORT=...) and print the address.
WEB_PORT ?= 8080
.PHONY: web
web: $(BIN)/medan-web
	$(Q)$(BIN)/medan-web --port $(WEB_PORT)

# `make install` also puts the page where the installed medan-web finds it
# (PREFIX/share/medan/www, beside PREFIX/bin).
WEB_WWW := $(wildcard gui-adapters/web/www/*)
.PHONY: web-install web-uninstall
install: web-install
web-install: $(BIN)/medan-web
	$(Q)install -d $(DESTDIR)$(PREFIX)/share/medan/www
	$(Q)install -m 644 $(WEB_WWW) $(DESTDIR)$(PREFIX)/share/medan/www/
uninstall: web-uninstall
web-uninstall:
	$(Q)rm -rf $(DESTDIR)$(PREFIX)/share/medan

# `make test` also runs tests/run-web.sh: every game in headless Chromium.
.PHONY: web-test
web-test: $(BIN)/medan-web $(ENGINES) $(BIN)/medan-referee $(BUILD)/mock/mock-engine
	@sh tests/run-web.sh $(BUILD) $(BIN)
TEST_STAGES += web-test

# `make web-hostile`: tests/run-web-hostile.sh, hostile clients at the socket
# level and the WebSocket conformance cases (no browser).
.PHONY: web-hostile
web-hostile: $(BIN)/medan-web $(ENGINES)
	@sh tests/run-web-hostile.sh $(BUILD) $(BIN)
TEST_STAGES += web-hostile

# The record reader's unit test links only it (and jansson).
$(BUILD)/tests/test_web_record: tests/unit/test_web_record.c $(BUILD)/gui-adapters/web/record.o $(FLAGS_STAMP) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(BUILD)/gui-adapters/web/record.o $(LIBMEDAN) -o $@ $(LDLIBS) -ljansson -lcmocka

# The Host check's unit test links only it.
$(BUILD)/tests/test_web_host: tests/unit/test_web_host.c $(BUILD)/gui-adapters/web/host.o $(FLAGS_STAMP) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(BUILD)/gui-adapters/web/host.o $(LIBMEDAN) -o $@ $(LDLIBS) -lcmocka

# The WebSocket frame reader's unit test links only it.
$(BUILD)/tests/test_web_wsproto: tests/unit/test_web_wsproto.c $(BUILD)/gui-adapters/web/wsproto.o $(FLAGS_STAMP) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(BUILD)/gui-adapters/web/wsproto.o $(LIBMEDAN) -o $@ $(LDLIBS) -lcmocka
