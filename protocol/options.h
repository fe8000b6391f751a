/* options.h - typed engine options (check spin combo string button):
 * defaults, parsing without silent clamping, and their `option` lines. */
#ifndef MEDAN_OPTIONS_H
#define MEDAN_OPTIONS_H

#include <stddef.h>

#include "engine.h"

/* Find an option by name, case-insensitively; NULL if none. */
const struct opt_spec *opt_find(const struct opt_spec *opts, const char *name);
/* Store the defaults of every option in the engine object. */
void opt_defaults(const struct opt_spec *opts, void *eng);
/* Parse and store a value (NULL for buttons). On error nothing changes and
 * err says why; returns 0 or a GAME_E* code. */
int opt_set(const struct opt_spec *o, void *eng, const char *value, char *err,
            size_t errlen);
/* The `option name ...` line (without newline). */
void opt_describe(const struct opt_spec *o, char *buf, size_t n);
/* Save / restore a value (for rejecting a change). */
struct opt_saved {
    int64_t i;
    char s[OPT_STR_LEN];
};
void opt_save(const struct opt_spec *o, void *eng, struct opt_saved *sv);
void opt_restore(const struct opt_spec *o, void *eng, const struct opt_saved *sv);

#endif
