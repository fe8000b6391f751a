/* options.c - typed options (see options.h). */
#include "options.h"

#include <assert.h>
#include <stdio.h>
#include <strings.h>
#include <string.h>

#include "../core/util.h"

const struct opt_spec *opt_find(const struct opt_spec *opts, const char *name)
{
    for (const struct opt_spec *o = opts; o && o->name; o++)
        if (str_ieq(o->name, name))
            return o;
    return NULL;
}

void opt_defaults(const struct opt_spec *opts, void *eng)
{
    for (const struct opt_spec *o = opts; o && o->name; o++) {
        int rc = o->type == OPT_BUTTON ? 0 : opt_set(o, eng, o->def, NULL, 0);
        assert(rc == 0 && "bad option default");
        (void)rc;
    }
}

/* Is word one of the space-separated vars (case-insensitive)? Writes the
 * canonical spelling into out. */
static int combo_match(const char *vars, const char *word, char *out, size_t n)
{
    const char *p = vars;
    size_t wl = strlen(word);
    while (*p) {
        const char *e = strchr(p, ' ');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == wl && strncasecmp(p, word, l) == 0) {
            snprintf(out, n, "%.*s", (int)l, p);
            return 1;
        }
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

int opt_set(const struct opt_spec *o, void *eng, const char *v, char *err, size_t en)
{
    int64_t x;
    char canon[OPT_STR_LEN];
    switch (o->type) {
    case OPT_BUTTON:
        return GAME_OK;
    case OPT_CHECK:
        if (!v || (!str_ieq(v, "true") && !str_ieq(v, "false")))
            return set_err(err, en, GAME_EVALUE, "%s takes true or false", o->name);
        *opt_int(eng, o) = str_ieq(v, "true");
        return GAME_OK;
    case OPT_SPIN:
        if (!v || parse_i64(v, o->min, o->max, &x))
            return set_err(err, en, GAME_EVALUE, "%s takes a whole number from %lld to %lld",
                           o->name, (long long)o->min, (long long)o->max);
        *opt_int(eng, o) = x;
        return GAME_OK;
    case OPT_COMBO:
        if (!v || !combo_match(o->vars, v, canon, sizeof canon))
            return set_err(err, en, GAME_EVALUE, "%s takes one of: %s", o->name, o->vars);
        snprintf(opt_str(eng, o), OPT_STR_LEN, "%s", canon);
        return GAME_OK;
    case OPT_STRING:
        /* `option` lines print an empty default as <empty>; a GUI echoes it */
        if (!v || strcmp(v, "<empty>") == 0)
            v = "";
        if (strlen(v) >= OPT_STR_LEN)
            return set_err(err, en, GAME_EVALUE, "%s: value longer than %d characters",
                           o->name, OPT_STR_LEN - 1);
        snprintf(opt_str(eng, o), OPT_STR_LEN, "%s", v);
        return GAME_OK;
    }
    return set_err(err, en, GAME_EVALUE, "bad option type");
}

void opt_describe(const struct opt_spec *o, char *buf, size_t n)
{
    size_t len = 0;
    static const char *const names[] = {"check", "spin", "combo", "string", "button"};
    buf_printf(buf, n, &len, "option name %s type %s", o->name, names[o->type]);
    if (o->type != OPT_BUTTON)
        buf_printf(buf, n, &len, " default %s", *o->def ? o->def : "<empty>");
    if (o->type == OPT_SPIN)
        buf_printf(buf, n, &len, " min %lld max %lld", (long long)o->min, (long long)o->max);
    if (o->type == OPT_COMBO) {
        char vars[512];
        char *tok[32];
        snprintf(vars, sizeof vars, "%s", o->vars);
        int k = str_split(vars, tok, 32);
        for (int i = 0; i < k; i++)
            buf_printf(buf, n, &len, " var %s", tok[i]);
    }
}

void opt_save(const struct opt_spec *o, void *eng, struct opt_saved *sv)
{
    if (o->type == OPT_CHECK || o->type == OPT_SPIN)
        sv->i = *opt_int(eng, o);
    else if (o->type != OPT_BUTTON)
        memcpy(sv->s, opt_str(eng, o), OPT_STR_LEN);
}

void opt_restore(const struct opt_spec *o, void *eng, const struct opt_saved *sv)
{
    if (o->type == OPT_CHECK || o->type == OPT_SPIN)
        *opt_int(eng, o) = sv->i;
    else if (o->type != OPT_BUTTON)
        memcpy(opt_str(eng, o), sv->s, OPT_STR_LEN);
}
