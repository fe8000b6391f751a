/* cli.h - the command line of medan-referee (match, merge, check). */
#ifndef REF_CLI_H
#define REF_CLI_H

#include "match.h"

/* Parse `--engine k=v ...` style arguments into m; 0 or -1 (message
 * printed).  Also used by `check` for --game / --engine. */
int ref_cli_parse(struct ref_match *m, int argc, char **argv, int check_mode,
                  char **resume_path);
/* Send this thread's ref_cli_parse errors into buf (one message, without
 * the usage hint) instead of stderr; NULL: stderr again.  For a program
 * that builds a match from its own settings (medan-web). */
void ref_cli_errors_to(char *buf, size_t n);
/* strict_latency: a latency figure over its bound fails (else: SLOW). */
/* check's time use items: `go movetime` for each of ms[0..nms), n times. */
#define REF_TIME_USE_MAX 8
struct ref_time_use {
    int64_t ms[REF_TIME_USE_MAX];
    int nms, n;
};
int ref_check_main(struct ref_match *m, int strict_latency, const struct ref_time_use *tu);
void ref_cli_help(void);

/* Replace the cutechess-cli spellings in argv (-engine, -pgnout, -srand, ...)
 * by this referee's own, in place. */
void ref_cli_canon(int argc, char **argv);

#endif
