/* main.c - medan-palagan: the Palagan engine. */
#include "../../protocol/mep.h"

extern const struct engine palagan_engine;

int main(int argc, char **argv) { return mep_main(&palagan_engine, argc, argv); }
