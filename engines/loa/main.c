/* main.c - medan-loa: the Lines of Action engine. */
#include "../../protocol/mep.h"

extern const struct engine loa_engine;

int main(int argc, char **argv) { return mep_main(&loa_engine, argc, argv); }
