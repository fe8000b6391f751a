/* report.h - medan-referee report: a self-contained HTML page (inline SVG,
 * no script, no network) from results files: Elo over the games with its
 * 95 % band, the SPRT's LLR path, score by opening, endings per engine and
 * seat, think time and depth per move. */
#ifndef REF_REPORT_H
#define REF_REPORT_H

#include <stdio.h>

/* argv: RESULTS.jsonl... --html OUT.html [--sprt k=v...] [--title T].
 * Returns the exit status. */
int ref_report_main(int argc, char **argv);
/* The subcommand's usage lines (stdout for --help, stderr for an error). */
void ref_report_usage(FILE *f);

#endif
