/* record.h - medan-web: game records pasted into the page or opened from a
 * share link.
 *
 * The reader accepts the referee's PGN-style record (docs/referee.md): any
 * tags `[Name "value"]`, movetext whose words are the game's own move
 * tokens, move numbers (`12.`, `12...`, `3.p2`), comments `{...}` and `;...`,
 * variations `(...)` (skipped), NAGs `$n` and the result.  It knows no game:
 * it turns a record into the request a share link makes ({"game", "size",
 * "players", "seed", "fen", "moves"}), and the session checks every token
 * with the game's own rules.
 */
#ifndef WEB_RECORD_H
#define WEB_RECORD_H

#include <stddef.h>
#include <jansson.h>

#define WEB_REC_MAX_TAGS 64

struct web_rec {
    int ntags;
    char *tag_name[WEB_REC_MAX_TAGS], *tag_value[WEB_REC_MAX_TAGS];
    int ntok, captok;
    char **tok;              /* the movetext's move tokens, in order */
};

/* Parse a record; 0, or -1 with err (r then holds nothing to free). */
int web_rec_parse(const char *text, struct web_rec *r, char *err, size_t n);
/* A tag's value (the last of that name), NULL when absent. */
const char *web_rec_tag(const struct web_rec *r, const char *name);
void web_rec_free(struct web_rec *r);

/* A copy of req with its "record" (a string) expanded into "game" (the Game
 * tag), "size"/"players" (the Variant tag), "fen" or "seed" (the FEN tag, or
 * the Opening tag: `startpos`, `fen <pos>`, `deal <seed>`, each with
 * `moves ...`) and "moves" (the opening's moves then the movetext's).  A
 * request without "record" comes back as a copy.  NULL with err when the
 * record is malformed. */
json_t *web_rec_request(json_t *req, char *err, size_t n);

#endif
