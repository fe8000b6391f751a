# control/module.mk - libcontrol.a, the controller side of MEP (child
# processes on pipes, the MEP client), linked by every program that runs
# engines: the referee, the OpenTafl adapter and bridge, the test tools,
# medan-web.  It needs only libmedan (core/util).
CTL_SRC := $(wildcard control/*.c)
CTL_OBJ := $(CTL_SRC:%.c=$(BUILD)/%.o)
CTL_LIB := $(BUILD)/libcontrol.a

$(CTL_LIB): $(CTL_OBJ)
	@rm -f $@
	@$(if $(Q),echo "  AR      $@")
	$(Q)$(AR) rcs $@ $^

# Its unit test: real children (/bin/sh), no engine.
$(BUILD)/tests/test_control: tests/unit/test_control.c $(FLAGS_STAMP) $(CTL_LIB) $(LIBMEDAN)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< $(CTL_LIB) $(LIBMEDAN) -o $@ $(LDLIBS) -lcmocka
