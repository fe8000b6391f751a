/* record.h - one finished game: JSON Lines (jansson) and PGN-style text.
 *
 * JSON keys (docs/referee.md): game seed match_seed variant{name,params}
 * seats opening moves[{seat,move,ms[,depth][,cp|win|loss]}] result reason
 * scores plies forfeit tc.  `result` is "p1win"/"p2win"/"draw" for two seats, {"ranks":[...]}
 * for more.  Seeds are below 2^53 so every JSON reader keeps them exact.
 */
#ifndef REF_RECORD_H
#define REF_RECORD_H

#include <stdint.h>
#include <stdio.h>

#include "core/game.h"

#define REF_NAME_LEN 64
#define REF_TOKEN_LEN 64
#define REF_SCORE_MATE 100000 /* the cp of a win/loss score (CTL_SCORE_MATE) */

struct ref_move {
    int seat;
    int depth;          /* of the last info line before the move; 0 = none */
    int has_score;      /* the engine's last score before the move: */
    int cp;             /*   `score cp X` (mover's view), or */
    int mate;           /*   `score win N`: N, `score loss N`: -N (plies) */
    int64_t ms;
    int ponderhit;      /* ponder=on: 1 the engine's ponder move was played
                           (ponderhit), -1 its ponder search was stopped
                           (a miss: this move came from a fresh go), 0 no
                           ponder search was running */
    char tok[REF_TOKEN_LEN];
};

struct ref_record {
    int game;                 /* 1-based number in the schedule */
    uint64_t seed, match_seed;
    char key[33];             /* hidden information: the match key (hex) */
    char game_name[32];
    char params[256];         /* as given: "size=6" */
    int nseats;
    char seat_name[GAME_MAX_SEATS][REF_NAME_LEN];
    char seat_tc[GAME_MAX_SEATS][64];
    char *opening;            /* MEP position argument: "start moves ..." */
    struct ref_move *moves;
    int nmoves, cap;
    int rank[GAME_MAX_SEATS]; /* 1 = best */
    double score[GAME_MAX_SEATS];
    int has_scores;
    int forfeit;              /* seat that forfeited, 0 = none */
    char reason[32];
    char date[32];            /* UTC start time, "2024.05.01 12:00:00" */
    char detail[512];
    char event[128], site[128]; /* --event, --site ("" = not given) */
    int64_t own_us;           /* referee's own time in this game (not saved) */         /* what went wrong, for failures */
};

void ref_record_init(struct ref_record *r);
void ref_record_free(struct ref_record *r);
void ref_record_add_move(struct ref_record *r, int seat, const char *tok,
                         int64_t ms);
/* "p1win" "p2win" "draw" for two seats; "ranks" otherwise. */
const char *ref_record_outcome(const struct ref_record *r);
/* The result as PGN writes it, "1-0" "0-1" "1/2-1/2", for two seats; NULL
 * otherwise (the one mapping of the PGN records and the live lines). */
const char *ref_record_result_text(const struct ref_record *r);
/* One JSON line + flush.  0 or -1. */
int ref_record_write_json(const struct ref_record *r, FILE *f);
/* Parse one JSON line; 0, or -1 with err set (r is then freed). */
int ref_record_parse_json(struct ref_record *r, const char *line, char *err,
                          size_t n);
/* PGN: the seven-tag roster first (Event Site Date Round White Black
 * Result; White/Black the engines of seats 1 and 2, "?" for N seats), then
 * the referee's own tags, and movetext whose comments are cutechess's
 * ("{+0.31/12 0.25s}"), + flush. */
int ref_record_write_pgn(const struct ref_record *r, FILE *f);
/* What a results file may hold: the bounds of ref_record_read_file, far
 * above real records (a game of 10 000 plies is under 1 MiB; an LOA game
 * takes some 1.3 kB, so 1 GiB holds several hundred thousand) and low
 * enough that a wrong path (/dev/zero, a stream that never ends) fails
 * fast. */
#define REF_RECORD_MAX_LINE (4L << 20)    /* bytes in one record (line) */
#define REF_RECORD_MAX_FILE (1L << 30)    /* bytes in one results file */
#define REF_RECORD_MAX_GAME 100000000     /* game numbers: 1..this */

/* A move's comment as cutechess-cli writes it, without the braces:
 * "+0.31/12 0.25s", "-M3/9 1.2s" (win/loss in plies), "0.043s" without a
 * score or depth. */
void ref_record_move_comment(const struct ref_move *m, char *b, size_t n);
/* Read every record of a JSON Lines file; calls fn for each.  A last line
 * cut short by a crash is skipped (and its byte offset returned in
 * *good_end, so --resume can truncate it).  Returns count or -1: the file
 * cannot be opened or read, is a directory, has a line longer than
 * REF_RECORD_MAX_LINE or more than REF_RECORD_MAX_FILE bytes, or a line
 * (not the last) that is not a record (bad JSON or UTF-8, a NUL byte).
 * Opening never blocks (a FIFO with no writer reads as empty); err names
 * the file and line and holds no control character from the file. */
int ref_record_read_file(const char *path,
                         void (*fn)(void *ctx, const struct ref_record *r),
                         void *ctx, long *good_end, char *err, size_t n);

#endif
