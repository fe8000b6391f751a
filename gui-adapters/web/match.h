/* match.h - medan-web's matches: played by the referee's library (the same
 * schedule, openings, clocks, adjudication, SPRT and results file as
 * `medan-referee` from the shell), and referee results files followed while
 * a running referee still writes them.
 *
 * A web_match runs one referee match in its own thread and tells its
 * session through web_match_hooks (a game starts from a position, a move is
 * played, the table changed).  The page's settings become a referee command
 * line built here from checked fields (engines by their configured names,
 * never a program or a path from the page), parsed by the referee's own
 * ref_cli_parse.
 */
#ifndef WEB_MATCH_H
#define WEB_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "core/game.h"

struct web_match;

/* What the match tells its session; called from the match's threads,
 * never with the match's own lock held. */
struct web_match_hooks {
    void *ctx;
    /* A game starts from position st (after its opening); eng_of_seat[i]
     * is 0 (engine A) or 1 (engine B) for seat i+1. */
    void (*start)(void *ctx, int game, const void *st, const int eng_of_seat[]);
    /* Seat `seat` played `tok` in `ms` milliseconds. */
    void (*move)(void *ctx, int seat, const char *tok, int64_t ms);
    /* The match's summary changed (a game counted, the match ended). */
    void (*changed)(void *ctx);
};

/* Start a match of game g (its parameters `params`, "size=5", as the
 * session applied them) from the page's request: a, b (engine names),
 * a_strategy, b_strategy, games, tc (engine time keys: "tc=10+0.1",
 * "st=0.1", "depth=3", "nodes=N"), seed, openings ("random-plies=4"),
 * sprt ("elo0=0 elo1=5 alpha=0.05 beta=0.05"), options (more referee
 * options from a fixed list).  NULL with err when the settings are refused
 * (by these checks or by the referee's parser). */
struct web_match *web_match_start(const struct game *g, const char *params,
                                  json_t *req, const struct web_match_hooks *h,
                                  char *err, size_t n);
/* Stop it (the game under way is dropped), wait for its thread, free. */
void web_match_free(struct web_match *wm);
/* Stop it and keep what was played. */
void web_match_stop(struct web_match *wm);
/* The match for the page: settings, the shell command that plays the same
 * match, results file, progress, the referee's table and Elo (new
 * reference). */
json_t *web_match_json(struct web_match *wm);

/* The referee's table (with its SPRT, or NULL), one game's row, and a
 * string cleaned to UTF-8, as the page gets them (new references; for
 * results.c). */
struct ref_table;
struct ref_sprt;
struct ref_record;
json_t *web_table_json(const struct ref_table *t, const struct ref_sprt *sprt);
json_t *web_row_json(const struct ref_record *r);
json_t *web_jtext(const char *s);

#endif
