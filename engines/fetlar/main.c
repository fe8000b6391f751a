/* main.c - medan-fetlar: the Fetlar Hnefatafl engine. */
#include "../../protocol/mep.h"
#include "fetlar_api.h"

int main(int argc, char **argv) { return mep_main(&fetlar_engine, argc, argv); }
