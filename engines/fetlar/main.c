/* main.c - medan-fetlar: the Fetlar Hnefatafl engine. */
#include "../../protocol/mep.h"

extern const struct engine fetlar_engine;

int main(int argc, char **argv) { return mep_main(&fetlar_engine, argc, argv); }
