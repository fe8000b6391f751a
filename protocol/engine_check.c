/* engine_check.c - the contract of a struct engine (engine.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/util.h"
#include "engine.h"
#include "options.h"

/* Is word one of the space-separated words of list? */
static int has_word(const char *list, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = list; p && *p;) {
        size_t l = strcspn(p, " ");
        if (l == wl && strncmp(p, word, l) == 0)
            return 1;
        p += l;
        p += strspn(p, " ");
    }
    return 0;
}

/* One option spec; scratch is a zeroed engine object to try the default in. */
static int check_option(const struct engine *e, const struct opt_spec *o, void *scratch,
                        char *err, size_t n)
{
    const char *g = e->game->name;
    size_t need = 0;
    char e2[GAME_ERR_LEN];
    if (!*o->name || strchr(o->name, ' '))
        return set_err(err, n, -1, "%s: an option without a usable name", g);
    if (!o->help || !*o->help)
        return set_err(err, n, -1, "%s: option %s has no help line", g, o->name);
    switch (o->type) {
    case OPT_CHECK:
    case OPT_SPIN:
        need = sizeof(int64_t);
        break;
    case OPT_COMBO:
    case OPT_STRING:
        need = OPT_STR_LEN;
        break;
    case OPT_BUTTON:
        break;
    default:
        return set_err(err, n, -1, "%s: option %s has no known type", g, o->name);
    }
    if (need && o->offset + need > e->size)
        return set_err(err, n, -1, "%s: option %s lies outside the engine object", g,
                       o->name);
    if (o->type == OPT_SPIN && o->min > o->max)
        return set_err(err, n, -1, "%s: option %s has min > max", g, o->name);
    if (o->type == OPT_COMBO && (!o->vars || !*o->vars))
        return set_err(err, n, -1, "%s: combo %s has no values", g, o->name);
    if (o->type != OPT_BUTTON && (!o->def || opt_set(o, scratch, o->def, e2, sizeof e2)))
        return set_err(err, n, -1, "%s: option %s: its default does not parse", g, o->name);
    return 0;
}

int engine_check(const struct engine *e, char *err, size_t n)
{
    const struct opt_spec *seed = NULL, *strategy = NULL;
    void *scratch;
    int rc = 0;
    if (!e->game)
        return set_err(err, n, -1, "an engine without a game");
    if (game_check(e->game, err, n))
        return -1;
    if (!e->name || !*e->name || !e->author || !*e->author)
        return set_err(err, n, -1, "%s: engine without a name or an author", e->game->name);
    if (!e->go)
        return set_err(err, n, -1, "%s: engine without go", e->game->name);
    scratch = xcalloc(1, e->size ? e->size : 1);
    for (const struct opt_spec *o = e->options; o && o->name && !rc; o++) {
        rc = check_option(e, o, scratch, err, n);
        for (const struct opt_spec *p = e->options; p < o && !rc; p++)
            if (strcasecmp(p->name, o->name) == 0)
                rc = set_err(err, n, -1, "%s: option %s twice", e->game->name, o->name);
        if (strcasecmp(o->name, ENGINE_OPT_SEED) == 0)
            seed = o;
        if (strcasecmp(o->name, ENGINE_OPT_STRATEGY) == 0)
            strategy = o;
    }
    free(scratch);
    if (rc)
        return rc;
    if (!seed || seed->type != OPT_SPIN || seed->min != 0 || seed->max < INT32_MAX)
        return set_err(err, n, -1, "%s: no %s option (a spin from 0 to at least 2^31 - 1)",
                       e->game->name, ENGINE_OPT_SEED);
    if (!strategy || strategy->type != OPT_COMBO ||
        !has_word(strategy->vars, ENGINE_STRATEGY_RANDOM))
        return set_err(err, n, -1, "%s: no %s option with the value %s", e->game->name,
                       ENGINE_OPT_STRATEGY, ENGINE_STRATEGY_RANDOM);
    return 0;
}
