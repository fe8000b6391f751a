# medan-web: the browser board (gui-adapters/web/): an HTTP server on
# libmicrohttpd with jansson, the page in www/, engines driven by the shared
# MEP controller.
WEB_SRC := $(wildcard gui-adapters/web/*.c)
WEB_OBJ := $(WEB_SRC:%.c=$(BUILD)/%.o)
# The MEP controller (child processes, handshake, commands).
WEB_CTL_OBJ := $(BUILD)/referee/proc.o $(BUILD)/referee/client.o

$(BIN)/medan-web: $(WEB_OBJ) $(WEB_CTL_OBJ) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) | $(ENGINES)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(WEB_OBJ) $(WEB_CTL_OBJ) $(REG_OBJ) $(GAME_LIBS) $(LIBMEDAN) -o $@ $(LDLIBS) -lmicrohttpd -ljansson

PROGRAMS += $(BIN)/medan-web

# `make web`: start it on port 8080 (WEB_PORT=...) and print the address.
WEB_PORT ?= 8080
.PHONY: web
web: $(BIN)/medan-web
	$(BIN)/medan-web --port $(WEB_PORT)

# `make test` also runs tests/run-web.sh: every game in headless Chromium.
.PHONY: web-test
web-test: $(BIN)/medan-web $(ENGINES)
	@sh tests/run-web.sh $(BUILD) $(BIN)
TEST_STAGES += web-test
