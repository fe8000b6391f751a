/* results.h - medan-web: the referee results files of --results-dir,
 * listed and followed while a running referee still writes them.
 *
 * A followed file is read incrementally: its offset is kept and a poll
 * parses only the lines added since (in chunks of RESULTS_CHUNK bytes, at
 * most RESULTS_BUDGET bytes a poll: a big file is caught up over a few
 * polls, its answer saying how many bytes are still unread).  Each file has
 * its own lock (a poll of one file never waits for another's reading); the
 * memory per file is bounded (the referee's table, the last RESULTS_KEPT
 * games' rows); the table as JSON is made again only when games were added,
 * and then not more often than 1/5 of the time it takes (a table of
 * thousands of engines).
 */
#ifndef WEB_RESULTS_H
#define WEB_RESULTS_H

#include <jansson.h>

#define RESULTS_MAX (64L << 20)       /* a results file the page may open */
#define RESULTS_ROWS 1000             /* games listed per answer */
#define RESULTS_KEPT 2000             /* games' rows kept per followed file */
#define RESULTS_CHUNK (1L << 20)      /* bytes read at once */
#define RESULTS_BUDGET (8L << 20)     /* bytes read in one poll */

/* The list (200 with {"files": [{name, size, mtime}...]}), or one file read
 * on from where the last poll stopped: its table and the games from number
 * `since` on (from the oldest kept when `since` is older: "first" says
 * which).  HTTP status; err for the others. */
int web_results_list(json_t **out, char *err, size_t n);
int web_results_read(const char *name, long since, json_t **out, char *err, size_t n);

#endif
