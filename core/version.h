/* version.h - the one place the Medan version is written: `id version` of
 * every engine, `--version` of every program, the manual pages' footer
 * (the Makefile reads this line). */
#ifndef MEDAN_VERSION_H
#define MEDAN_VERSION_H

#define MEDAN_VERSION "0.1"

#endif
